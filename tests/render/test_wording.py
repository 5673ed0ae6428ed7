"""Pictures in the reader's language: every word from a ``Wording``, right-to-left lines shaped and measured as
drawn, long translations wrapped or shrunk inside the picture, and the English pictures as they were."""

# ruff: noqa: RUF001  (the Russian words' Cyrillic letters are meant)

from __future__ import annotations

import dataclasses
import io
import itertools
import pickle

import pytest
from PIL import Image, ImageDraw

from bot.telegram.runtime.work import answer_for, group_picture, play_picture, table_picture
from render import (
    ENGLISH,
    Wording,
    draw,
    draw_indexed,
    fonts,
    indexed,
    legend_words,
    png,
    render_solution,
    render_table,
    summary,
)
from render import layout as layout_module
from render.examples import full_deck_play, no_play, small_play
from render.fonts import draw_args, right_to_left, shapes_bidi, text_width, visual_order
from render.layout import Layout, TextRole, layout_solution, layout_table
from render.theme import MAX_WIDTH, MIN_WIDTH
from solver.notation import parse_table, parse_tiles
from solver.planner import numbered, plan_of
from solver.rules import STANDARD, Rules
from solver.sets import TileSet
from solver.solution import Solution
from solver.solve import solve
from solver.tiles import PALETTE
from tests.render.test_layout import check_layout, reading_order

GERMAN = Wording(
    from_rack="aus deinem Bänkchen",
    moved="aus einer anderen Reihe verschoben",
    unchanged="unverändert",
    just_played="gerade gelegt",
    split_from="{label}, abgetrennt von {home}",
    continued="{label} Forts.",
    empty_table="Der Tisch ist leer",
    no_play="Kein Zug: zieh einen Stein",
    play="{tiles}, {points}",
    initial_meld="Erstauslage",
    best_in_time="das Beste in der Zeit",
    your_rack="Dein Bänkchen: {tiles}",
    rack="Bänkchen: {tiles}",
    rack_left="Übrig im Bänkchen: {tiles}",
    rack_empty="Dein Bänkchen ist leer",
    rack_won="Übrig im Bänkchen: nichts, du gewinnst!",
    tiles=("{n} Stein", "{n} Steine"),
    points=("{n} Punkt", "{n} Punkte"),
    plural="n != 1",
)

HEBREW = Wording(
    from_rack="מהמדף שלך",
    moved="הועבר מקבוצה אחרת",
    unchanged="ללא שינוי",
    just_played="הונח עכשיו",
    split_from="{label}, פוצל מ-{home}",
    continued="{label} המשך",
    empty_table="השולחן ריק",
    no_play="אין מהלך: קח אבן",
    initial_meld="הנחה ראשונה",
    best_in_time="הטוב ביותר שנמצא בזמן",
    your_rack="המדף שלך: {tiles}",
    rack="מדף: {tiles}",
    rack_left="נשאר במדף: {tiles}",
    rack_empty="המדף שלך ריק",
    rack_won="נשאר במדף: כלום, ניצחת!",
    tiles=("אבן אחת", "{n} אבנים"),
    points=("נקודה אחת", "{n} נקודות"),
    plural="n != 1",
    right_to_left=True,
)

RUSSIAN = Wording(
    tiles=("{n} фишка", "{n} фишки", "{n} фишек"),
    points=("{n} очко", "{n} очка", "{n} очков"),
    plural="(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
    from_rack="с вашей подставки",
    moved="перенесено из другой комбинации",
    unchanged="без изменений",
    rack_left="Осталось на подставке: {tiles}",
)

#: the English words a picture of a play or a table could show, legend first
ENGLISH_WORDS = (
    *legend_words(ENGLISH).values(),
    ENGLISH.just_played,
    "tile",
    "point",
    "Rack",
    "rack",
    "split from",
    "cont.",
    "The table is empty",
    "No play",
    "initial meld",
    "best found",
)


def texts_of(layout: Layout) -> list[str]:
    return [t.text for t in layout.texts] + [tab.text for s in layout.sets for tab in s.tabs]


def assert_same_picture(layout: Layout) -> None:
    fast = draw_indexed(layout)
    reference = draw(layout).quantize(palette=png.palette(), dither=Image.Dither.NONE)
    assert fast.convert("RGB").tobytes() == reference.convert("RGB").tobytes()


def split_play() -> tuple[Solution, list[str]]:
    table = parse_table("1R 2R 3R 4R 5R 6R 7R | 9K 10K 11K | 2B 3B 4B | 5O 6O 7O", STANDARD)
    sol = solve(parse_tiles("4K 4O", STANDARD), table, STANDARD, initial_meld=False)
    shown, numbers = numbered(sol, plan_of(sol))
    return shown, [str(n) for n in numbers]


# --- the wording itself ---------------------------------------------------------------------------------------------


def test_the_default_wording_is_english_and_plain_data() -> None:
    assert Wording() == ENGLISH
    assert ENGLISH.count(ENGLISH.tiles, 1) == "1 tile" and ENGLISH.count(ENGLISH.points, 0) == "0 points"
    for wording in (ENGLISH, GERMAN, HEBREW, RUSSIAN):
        assert pickle.loads(pickle.dumps(wording)) == wording  # it travels to a worker process


@pytest.mark.parametrize(
    ("n", "tiles", "points"),
    [
        (1, "1 фишка", "1 очко"),
        (3, "3 фишки", "3 очка"),
        (5, "5 фишек", "5 очков"),
        (11, "11 фишек", "11 очков"),
        (21, "21 фишка", "21 очко"),
        (24, "24 фишки", "24 очка"),
        (112, "112 фишек", "112 очков"),
    ],
)
def test_russian_counts_pick_the_right_of_three_forms(n: int, tiles: str, points: str) -> None:
    assert RUSSIAN.count(RUSSIAN.tiles, n) == tiles
    assert RUSSIAN.count(RUSSIAN.points, n) == points


def test_russian_words_reach_the_picture() -> None:
    layout = layout_solution(small_play(), wording=RUSSIAN)  # 7 tiles, 44 points, 4 left
    texts = {t.role: t.text for t in layout.texts}
    assert texts[TextRole.HEADER] == "7 фишек, 44 очка"
    assert texts[TextRole.CAPTION] == "Осталось на подставке: 4 фишки"
    check_layout(layout)


def test_a_form_missing_for_a_count_falls_back_to_the_last() -> None:
    short = Wording(tiles=("{n} x",), plural="n != 1")
    assert short.count(short.tiles, 2) == "2 x"


# --- German: every word from the wording ---------------------------------------------------------------------------


def test_a_german_picture_shows_only_german_words() -> None:
    play = dataclasses.replace(small_play(), initial_meld=True, optimal=False)
    english, german = layout_solution(play), layout_solution(play, wording=GERMAN)
    words = texts_of(german)
    header = " ".join(t.text for t in german.texts if t.role is TextRole.HEADER)  # long: on two lines
    assert header == "7 Steine, 44 Punkte · Erstauslage · das Beste in der Zeit"
    assert next(t.text for t in german.texts if t.role is TextRole.LEGEND) == "aus deinem Bänkchen"
    assert {"aus einer anderen Reihe verschoben", "unverändert", "Übrig im Bänkchen: 4 Steine"} <= set(words)
    for text in words:
        assert not any(word in text for word in ENGLISH_WORDS), text
    assert texts_of(english) != words
    check_layout(german)
    assert render_solution(play, wording=GERMAN) != render_solution(play)


def test_german_words_in_every_corner_of_a_picture() -> None:
    group = layout_solution(small_play(), show_rack=False, wording=GERMAN)
    assert next(t.text for t in group.texts if t.role is TextRole.LEGEND) == "gerade gelegt"
    assert {t.role: t.text for t in layout_solution(no_play(), wording=GERMAN).texts}[TextRole.CAPTION] == (
        "Dein Bänkchen: 5 Steine"
    )
    assert (
        "du gewinnst!"
        in {t.role: t.text for t in layout_solution(full_deck_play(), wording=GERMAN).texts}[TextRole.CAPTION]
    )
    empty = layout_table([], STANDARD, rack=parse_tiles("4B J", STANDARD), header="Tisch", wording=GERMAN)
    assert texts_of(empty) == ["Tisch", "Der Tisch ist leer", "Bänkchen: 2 Steine"]
    assert texts_of(layout_table([], STANDARD, rack=[], wording=GERMAN))[-1] == "Dein Bänkchen ist leer"
    long_run = TileSet.run(PALETTE[0], 1, length=40)
    continued = layout_table([long_run], Rules(numbers=40), wording=GERMAN)
    assert [t.text for t in continued.sets[0].tabs][1:] == ["1 Forts."] * (len(continued.sets[0].trays) - 1)
    shown, labels = split_play()
    split = layout_solution(shown, labels=labels, wording=GERMAN)
    assert [split.sets[i].label for i in reading_order(split)][:2] == ["1", "5, abgetrennt von 1"]
    assert summary(no_play(), GERMAN) == "Kein Zug: zieh einen Stein"


def test_the_bots_work_passes_the_wording_on() -> None:
    play = small_play()
    assert answer_for(play, wording=GERMAN).picture != answer_for(play).picture
    assert group_picture(play, wording=GERMAN) != group_picture(play)
    table = parse_table("1-3R | 5B 5K 5O", STANDARD)
    rack = parse_tiles("7R 8R", STANDARD)
    english = table_picture(table, STANDARD, rack, "Tisch")
    assert table_picture(table, STANDARD, rack, "Tisch", wording=GERMAN) != english
    after = parse_table("1-3R | 5B 5K 5O | 7R 8R J", STANDARD)
    german, _ = play_picture(table, after, STANDARD, wording=GERMAN)
    assert german != play_picture(table, after, STANDARD)[0]


# --- English stays as it was ---------------------------------------------------------------------------------------


def test_english_by_default_and_by_name_give_the_same_picture() -> None:
    play = small_play()
    assert render_solution(play) == render_solution(play, wording=ENGLISH)
    assert render_solution(play, wording=Wording()) == render_solution(play)
    table = parse_table("1-3R", STANDARD)
    assert render_table(table, STANDARD, header="T") == render_table(table, STANDARD, header="T", wording=ENGLISH)
    texts = texts_of(layout_solution(dataclasses.replace(play, initial_meld=True, optimal=False)))
    assert texts[0] == "7 tiles, 44 points · initial meld · best found in time"


# --- Hebrew: right to left -----------------------------------------------------------------------------------------


def test_right_to_left_is_found_by_its_letters() -> None:
    assert right_to_left("מהמדף שלך") and right_to_left("5, פוצל מ-1") and right_to_left("مرحبا")
    assert not right_to_left("Übrig im Bänkchen: 4") and not right_to_left("Осталось 4 фишки")
    assert draw_args("Rack", 20)[2] is None  # left-to-right text keeps the basic layout: English is unchanged


def test_a_right_to_left_line_is_drawn_inside_the_width_it_is_measured_at() -> None:
    for text in ("מהמדף שלך", "7 אבנים, 44 נקודות · הנחה ראשונה", "5, פוצל מ-1", "נשאר במדף: 4 אבנים"):
        for size in (10, 22, 32):
            shown, face, direction = draw_args(text, size)
            if shapes_bidi():
                assert direction == "rtl" and shown == text
            width = text_width(text, size)
            img = Image.new("L", (width + 4 * size, 3 * size), 0)
            ImageDraw.Draw(img).text(
                (2 * size, 1.5 * size), shown, fill=255, font=face, anchor="lm", direction=direction
            )
            inked = img.getbbox()
            assert inked is not None
            assert 2 * size - 1 <= inked[0] and inked[2] <= 2 * size + width + 1, (text, size, inked, width)


def test_without_raqm_a_right_to_left_line_is_put_in_display_order() -> None:
    assert visual_order("שלום") == "םולש"
    assert visual_order("נשאר במדף: 4 אבנים") == "םינבא 4 :ףדמב ראשנ"
    assert visual_order("פוצל (Anna)") == "(Anna) לצופ"


def _forget_measures() -> None:
    fonts.text_width.cache_clear()
    layout_module._wrapped.cache_clear()
    indexed._text_piece.cache_clear()


def test_without_raqm_a_hebrew_picture_is_still_laid_out_and_drawn_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "shapes_bidi", lambda: False)
    _forget_measures()
    try:
        assert draw_args("מדף: 2 אבנים", 20)[0] == "םינבא 2 :ףדמ"
        layout = layout_solution(small_play(), wording=HEBREW)
        check_layout(layout)
        for place in layout.texts:
            assert text_width(place.text, place.size) <= place.box.w
        assert_same_picture(layout)
    finally:
        monkeypatch.undo()
        _forget_measures()


@pytest.mark.parametrize("scale", [None, 1.0, 0.5, 0.3])
def test_a_hebrew_picture_lays_out_inside_and_encodes(scale: float | None) -> None:
    play = dataclasses.replace(small_play(), initial_meld=True, optimal=False)
    layout = layout_solution(play, wording=HEBREW, scale=scale)
    check_layout(layout)
    for text in texts_of(layout):
        assert not any(word in text for word in ENGLISH_WORDS), text
    for place in layout.texts:
        assert place.box.x >= 0 and place.box.right <= layout.width
        assert text_width(place.text, place.size) <= place.box.w  # the box holds the text as it is drawn
    assert_same_picture(layout)
    data = render_solution(play, wording=HEBREW)
    picture = Image.open(io.BytesIO(data))
    picture.verify()
    assert picture.format == "PNG"
    assert Image.open(io.BytesIO(data)).size == (layout_solution(play, wording=HEBREW).width,
                                                  layout_solution(play, wording=HEBREW).height)  # fmt: skip
    assert data != render_solution(play)


def test_a_hebrew_table_and_split_labels() -> None:
    shown, labels = split_play()
    layout = layout_solution(shown, labels=labels, wording=HEBREW)
    check_layout(layout)
    assert "5, פוצל מ-1" in [s.label for s in layout.sets]
    for s in layout.sets:
        for tab in s.tabs:
            assert text_width(tab.text, tab.size) <= tab.box.w
    assert_same_picture(layout)
    empty = layout_table([], STANDARD, rack=parse_tiles("4B J", STANDARD), header="השולחן של ענה", wording=HEBREW)
    check_layout(empty)
    assert texts_of(empty) == ["השולחן של ענה", "השולחן ריק", "מדף: 2 אבנים"]
    assert_same_picture(empty)


# --- long translations ---------------------------------------------------------------------------------------------

LONG = dataclasses.replace(
    GERMAN,
    from_rack="aus deinem eigenen Bänkchen (der Spielsteinhalterung vor dir)",
    moved="aus einer anderen Kombination auf dem Tisch hierher verschoben",
    unchanged="unverändert an seinem bisherigen Platz geblieben",
    initial_meld="Erstauslage (mindestens dreißig Punkte aus dem eigenen Bänkchen)",
    best_in_time="das Beste, was in der verfügbaren Bedenkzeit gefunden wurde",
    rack_left="Auf deinem Bänkchen verbleibende Spielsteine nach diesem Zug: {tiles}",
    split_from="{label}, abgetrennt von der Reihe {home}",
    tiles=("{n} Spielstein", "{n} Spielsteine"),
)


@pytest.mark.parametrize("width", [MAX_WIDTH, MIN_WIDTH])
@pytest.mark.parametrize("scale", [None, 1.0, 0.6, 0.3])
def test_a_long_legend_and_header_stay_inside_and_readable(width: int, scale: float | None) -> None:
    play = dataclasses.replace(small_play(), initial_meld=True, optimal=False)
    layout = layout_solution(play, wording=LONG, scale=scale, width=width)
    check_layout(layout)
    m = layout.metrics
    header = [t for t in layout.texts if t.role is TextRole.HEADER]
    # the header wraps between words rather than shrinking to a speck, and says every word once, in order
    assert " ".join(t.text for t in header).split() == summary(play, LONG).split()
    assert len(header) > 1 and all(t.size >= min(m.header_font * 3 // 4, 10) for t in header)
    for one, other in itertools.pairwise(header):
        assert one.box.bottom <= other.box.y
    legend = " ".join(t.text for t in layout.texts if t.role is TextRole.LEGEND)
    assert legend.split() == " ".join(legend_words(LONG).values()).split()
    for place in layout.texts:
        assert place.box.right <= layout.width - m.margin + 1, place
        assert text_width(place.text, place.size) <= place.box.w, place  # nothing is drawn past its box
    assert_same_picture(layout)


def test_a_long_russian_legend_is_laid_out_inside() -> None:
    long_russian = dataclasses.replace(
        RUSSIAN,
        from_rack="выложено с вашей собственной подставки в этом ходу",
        moved="перенесено сюда из другой комбинации на столе",
        unchanged="осталось без изменений на своём прежнем месте",
        rack_left="Осталось фишек на вашей подставке после этого хода: {tiles}",
    )
    layout = layout_solution(small_play(), wording=long_russian, width=MIN_WIDTH, scale=1.0)
    check_layout(layout)
    for place in layout.texts:
        assert text_width(place.text, place.size) <= place.box.w, place
    assert_same_picture(layout)
