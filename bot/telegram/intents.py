"""What a question typed in words asks ("what should I play?", "wer ist dran?", "и что теперь?"), in the seven
languages the bot speaks: the best play, help, whose turn it is, how many tiles are left in the pool.

Phrases are matched loosely (case, punctuation and a word around them do not matter); a message that asks
none of these is left to the caller, which answers with the likely next steps.
"""

from __future__ import annotations

import re
from enum import Enum


class Intent(Enum):
    SOLVE = "solve"
    HELP = "help"
    TURN = "turn"
    POOL = "pool"


_PHRASES: dict[Intent, tuple[str, ...]] = {
    Intent.SOLVE: (
        # English
        r"what (?:should|shall|can|do|could) i (?:play|lay|put|do)", r"best (?:play|move)", r"what now",
        r"what(?:'s| is) my (?:best )?(?:play|move)", r"my move", r"help me play", r"any (?:play|move)",
        # German
        r"was (?:soll|kann|sollte) ich (?:legen|spielen|tun|machen|ablegen)", r"bester zug", r"was jetzt",
        r"was nun", r"mein zug",
        # Dutch
        r"wat (?:moet|kan|zal) ik (?:leggen|spelen|doen)", r"beste zet", r"wat nu",
        # Spanish
        r"qu[ée] (?:juego|pongo|hago|jugar|puedo jugar|debo jugar)", r"mejor jugada", r"y ahora",
        # French
        r"que (?:dois-je|puis-je|je peux|je dois) (?:jouer|poser|faire)", r"quoi jouer", r"meilleur coup",
        r"et maintenant", r"je joue quoi",
        # Russian
        r"что (?:мне )?(?:играть|ходить|положить|делать|сыграть)", r"(?:и )?что теперь", r"лучший ход",
        r"как (?:мне )?(?:сходить|походить)",
        # Hebrew
        r"מה (?:לשחק|לשים|להניח|כדאי|אני משחק|לעשות)", r"מה עכשיו", r"המהלך הטוב",
    ),
    Intent.TURN: (
        r"whose turn", r"who(?:'s| is) (?:next|playing|on)", r"who plays",
        r"wer ist (?:dran|an der reihe)", r"wer spielt", r"wer ist jetzt",
        r"wie is (?:er )?aan de beurt", r"wie is aan zet",
        r"(?:de )?qui[ée]n (?:es el turno|juega|le toca)", r"a qui (?:le tour|de jouer)", r"c'est à qui",
        r"чей (?:сейчас )?ход", r"кто (?:ходит|играет)",
        r"(?:של )?מי (?:התור|משחק)", r"תור של מי",
    ),
    Intent.POOL: (
        r"how many tiles", r"tiles (?:are )?left", r"(?:in )?the pool",
        r"wie viele steine", r"steine (?:sind )?übrig", r"im pool",
        r"hoeveel stenen", r"stenen over",
        r"cu[áa]ntas fichas", r"fichas quedan",
        r"combien de (?:tuiles|pions|jetons)", r"(?:tuiles|pions) restants?",
        r"сколько (?:фишек|костей|камней|плиток)", r"в (?:пуле|колоде|банке)",
        r"כמה (?:אבנים|אריחים)", r"בקופה",
    ),
    Intent.HELP: (
        r"help", r"how does (?:this|it) work", r"how (?:do i|to) (?:use|write|play)",
        r"hilfe", r"wie geht das", r"wie funktioniert",
        r"hulp", r"hoe werkt",
        r"ayuda", r"c[óo]mo funciona",
        r"aide", r"comment (?:ça|ca) marche",
        r"помощь", r"помоги(?:те)?", r"как (?:это )?работает",
        r"עזרה", r"איך זה עובד",
    ),
}  # fmt: skip

# matched in this order: "help me play" asks for a play, not for help
_ORDER = (Intent.SOLVE, Intent.TURN, Intent.POOL, Intent.HELP)
_PATTERNS = {intent: re.compile(rf"(?<!\w)(?:{'|'.join(_PHRASES[intent])})(?!\w)", re.IGNORECASE) for intent in _ORDER}
#: longest message read as a question (a paragraph is not one)
MOST = 120


def intent_of(text: str) -> Intent | None:
    """What ``text`` asks, if it is one of the questions above."""
    said = " ".join(text.split()).strip().lower()
    if not said or len(said) > MOST:
        return None
    if said.strip("?!. ") == "":
        return Intent.HELP  # a lone "?"
    for intent in _ORDER:
        if _PATTERNS[intent].search(said):
            return intent
    return None
