"""What a typed question asks (``bot.telegram.intents``): the four questions a family asks the bot, in the seven
languages it speaks, read loosely; tiles, chatter and long paragraphs are no question."""

from __future__ import annotations

import pytest

from bot.telegram.intents import MOST, Intent, intent_of

ASKED = {
    Intent.SOLVE: [
        "what should I play?", "What do I play", "best play please", "what now?", "what's my best move?",
        "help me play",
        "was soll ich legen?", "Was kann ich spielen", "und was jetzt?", "bester Zug?",
        "wat moet ik leggen?", "wat nu",
        "¿qué juego?", "y ahora?", "mejor jugada",
        "que dois-je jouer ?", "et maintenant ?", "je joue quoi",
        "и что теперь?", "что мне играть", "лучший ход?",
        "מה לשחק?", "מה עכשיו?",
    ],
    Intent.TURN: [
        "whose turn is it?", "who's next", "wer ist dran?", "Wer ist an der Reihe", "wie is er aan de beurt?",
        "¿a quién le toca? quién juega", "c'est à qui ?", "чей ход?", "кто ходит", "תור של מי?", "מי משחק?",
    ],
    Intent.POOL: [
        "how many tiles are left?", "tiles left?", "wie viele Steine sind übrig?", "hoeveel stenen nog?",
        "¿cuántas fichas quedan?", "combien de tuiles ?", "сколько фишек осталось?", "כמה אבנים נשארו?",
    ],
    Intent.HELP: [
        "help", "HELP!", "how does this work?", "Hilfe", "hulp", "ayuda", "aide", "помощь", "помогите", "עזרה", "?",
    ],
}  # fmt: skip


@pytest.mark.parametrize(("text", "intent"), [(text, intent) for intent, texts in ASKED.items() for text in texts])
def test_each_question_is_read_as_what_it_asks(text: str, intent: Intent) -> None:
    assert intent_of(text) is intent


@pytest.mark.parametrize(
    "text",
    ["3R 4R 5R", "rack: 3R 4R 5R J", "hello there", "thanks!", "ok", "", "   ", "helpful tiles 3R", "helper",
     "the whopper", "Danke", "спасибо", "תודה"],
)  # fmt: skip
def test_tiles_and_chatter_ask_nothing(text: str) -> None:
    assert intent_of(text) is None


def test_asking_to_play_is_a_play_not_help() -> None:
    """ "help me play" wants the play; the order of reading makes it so."""
    assert intent_of("can you help me play?") is Intent.SOLVE


def test_a_paragraph_is_no_question() -> None:
    long = "we were playing last night and " * 5 + "what should I play?"
    assert len(long) > MOST
    assert intent_of(long) is None


def test_spacing_and_case_do_not_matter() -> None:
    assert intent_of("  WHAT   should\n i   PLAY  ") is Intent.SOLVE
