"""A new game started: in a group, with the Join button and the creator seated (unless they write as the
group); in a private chat, tied to it at once."""

from __future__ import annotations

from telegram import Update

from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.games import name_of
from bot.telegram.words import replies
from bot.telegram.words import rules as rule_words
from bot.telegram.words.language import _
from solver.rules import Rules


async def start_new(
    update: Update, context: BotContext, rules: Rules, *, replace: bool, answering: str | None = None
) -> None:
    chat, user = context.where, context.who
    service = context.service
    if is_group(chat):
        anonymous = as_the_chat(update)  # nobody to seat: everyone taps Join (a tap always says who it is)
        state = await service.new_game(
            chat.id, user.id, rules, join_as=None if anonymous else name_of(user), replace=replace,
            title=chat.title, answering=answering,
        )  # fmt: skip
        if not anonymous:
            await service.follow_to(user.id, state)  # a private chat tied to this group's last game follows
        markup = replies.group_buttons(context.bot.username, state.invite, join=True)
        first = "" if anonymous else _("{name} sits first.").format(name=name_of(user)) + " "
        join = _("Tap Join to play; then tap My rack to set your rack in private.")
        text = f"{rule_words.new_game(rules)}\n{first}{join}"
        await context.bot.send_message(chat.id, text, reply_markup=markup)
        return
    state = await service.new_game(chat.id, user.id, rules, join_as=name_of(user), replace=True, answering=answering)
    await service.tie(user.id, state.id)  # this chat now answers for the new game, not a group's
    await context.bot.send_message(chat.id, f"{rule_words.new_game(rules)}\n{rule_words.send_rack(rules)}")


def as_the_chat(update: Update) -> bool:
    """The message was sent in the chat's name (an anonymous admin, a channel): it has no player behind it."""
    return update.message is not None and update.message.sender_chat is not None
