"""The fixed texts: the greeting, the help, and the example a new user can tap.

Each is marked for the catalogues (``N_``) and translated where it is sent (``language._``).
"""

from __future__ import annotations

from solver.text import N_

EXAMPLE_RACK = "3R 4R 5R 7B J 11K"
EXAMPLE_TABLE = "6R 7R 8R | 7K 7O 7R"

START = N_(
    "Hi! I find the best Rummikub play and show it as a picture.\n"
    "Send your tiles like this (or tap the example):\n"
    "rack: {rack}\n"
    "table: {table}"
)

START_GROUP = N_(
    "Hi! I keep this group's Rummikub table and help each player find their best play.\n"
    "/new starts a game, /join takes a seat, and your rack stays private in our chat."
)

#: /help in a private chat: one phone screen (at most 12 lines), the topics as buttons below
HELP = N_("""I find your best Rummikub play and keep your family's game.
Send your rack and the table, a line each:
rack: 3R 4R 5R J
table: 6R 7R 8R | 7K 7O 7R
and I answer with the best play as a picture, with the moves.
After a play that moves tiles around, send the whole table as it lies now.
/solve best play · /hint a hint · /status table and rack · /undo take back
Tap a topic for more:""")

#: /help in a group: one phone screen, the topics as buttons below
HELP_GROUP = N_("""I keep this group's Rummikub game and help each player find their best play.
/new starts a game and everyone taps Join. Racks stay private: tap My rack.
A play: /play 9R 10R 11R, or the whole table as it lies after it: table: 3R 4R 5R | 6R 7R 8R 9R
No play: tap I drew (with the pool empty, /pass). At the end: /left and your tiles.
/status whose turn · /scores the score · /undo take back
Tap a topic for more:""")

HELP_TOPICS = {
    "tiles": N_("✍️ Writing tiles"),
    "group": N_("👪 A group game"),
    "photos": N_("📷 Photos"),
    "rules": N_("📏 Rules"),
    "commands": N_("📋 All commands"),
}

TOPIC_TILES = N_("""Writing tiles
• A tile: number and colour, any order: 3R, r3, red 3, 🟥3. Colours: R red, B blue, K black, O orange (Y yellow = O).
• Colour words in German, Dutch, Spanish, French, Russian and Hebrew work too: 3 rot, rood 3, 3 rojo…
• A joker: J (or joker, *).
• A run: 3-6R or 3R-6R (3R 4R 5R 6R). A group: 7RBK (7R 7B 7K).
• Sets on the table are separated by | ; / or new lines, or written in brackets: (3R 4R 5R) (7B 7K 7O).
• /rack or /draw alone opens a keyboard to tap your tiles.
• A play: /play 9R 10R 11R puts sets down; /play 10B puts 10B where it fits. A play that moves tiles around: \
send the whole table as it lies after it, like table: 3R 4R 5R | 6R 7R 8R 9R.
• A mistake typed earlier: /table fix and the whole table.""")

TOPIC_GROUP = N_("""A group game
• /new starts a game (/new meld=25 for other rules); everyone taps Join, and the first to join plays first.
• Tap My rack to set your rack in our private chat: only you see it, and I find your best play there.
• Tap "I played this" under my answer and the group sees the new table, never your rack.
• Or record a play in the group: /play 9R 10R 11R, or the whole table as it lies after it.
• No play: tap I drew, then tell me the tile in private. With the pool empty, /pass.
• A play on someone else's turn, or a first play below the meld, is asked about before it is recorded.
• The first with an empty rack wins; the others tell me their tiles with /left, and /scores keeps the totals.""")

TOPIC_PHOTOS = N_("""Photos
• Send a photo of your rack or of the table: I read the tiles, and you tap what they are.
• In a group, a photo of the table with /table as its caption shows the sets I read; a player taps to set them.
• After a turn, a photo of the table in the group asks whether it is the play just made.
• Lay the tiles flat, in good light, not overlapping.""")

TOPIC_RULES = N_("""Rules
• 106 tiles: 1-13 in four colours, two of each, and two jokers. Each player starts with 14.
• A set has at least 3 tiles: a run of one colour without gaps (13-1 is no run), or a group of one number, \
each colour once.
• A turn is a play or a draw. Every tile on the table stays on the table, in valid sets.
• The first play needs 30 points from your own rack, in new sets; a joker counts as the tile it stands for.
• The first with an empty rack wins: the others score minus their rack (a joker 30), the winner the sum.
• /rules shows this game's rules; /new meld=25 jokers=1 starts a game with others.""")

TOPICS = {"tiles": TOPIC_TILES, "group": TOPIC_GROUP, "photos": TOPIC_PHOTOS, "rules": TOPIC_RULES}

WON = N_("Your rack is empty: you won! /end closes the game.")
STALE_RACK = N_(
    "Your rack as I have it no longer fits the deck with the group's table (some of its tiles must be on the "
    "table now): send your rack again, like rack: {example}"
)
STALE_BUTTON = N_("This button is from an earlier question or game; nothing was done")
UNKNOWN_COMMAND = N_("I don't know {command}. /help lists what I can do.")
NOT_UNDERSTOOD = N_("Send me tiles like 3R 4R J, or lines starting with rack: and table:. /help explains.")
TOO_LARGE = N_(
    "That position is too large: solving it needs more than the {limit} MiB of memory I may use for one answer. "
    "Try it with fewer tiles."
)
TOO_LONG = N_(
    "That message is too long ({length} characters); I read at most {limit}. Send the rack and the table apart."
)
PRIVATE_ONLY = N_("Racks are private: tap the button to set yours in our chat.")
SLOW_DOWN = N_(
    "Slow down, please: that was a lot of messages at once, so I am skipping the rest for half a minute. "
    "Send what you need again in a moment."
)

GREET_GROUP = N_(
    "Hi! I keep this group's Rummikub table and help each player find their best play, with your rack kept "
    "private in our chat.\nTap New game to start (or /new meld=25 for other rules); then everyone taps Join."
)
NEW_GAME_BUTTON = N_("🎲 New game")
GAME_ALREADY = N_("This group already has a game: tap Join to play, or /new to start another")
NOT_TEXT = N_(
    "I can't read stickers, voice notes or videos. Type your tiles (like 3R 4R J), send /rack to tap them on "
    "a keyboard, or send a photo of your rack or the table."
)
#: Before the answer to an edited message, so the reply says what it answers
EDITED = N_("✏️ Your edited message, read again: ")
EDIT_NOT_RERUN = N_("An edited {command} is not run again, so nothing changed. Send it as a new message.")
EDIT_DRAW = N_(
    "An edited /draw is not drawn again, so your rack is unchanged. If the draw was wrong, send your whole "
    "rack: /rack 3R 4R 5R J"
)
EDIT_NOT_TEXT = N_("I read again only edited text; send the photo again to have it read.")
