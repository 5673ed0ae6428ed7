"""A loopback fake of the Telegram Bot API for end-to-end tests and the bot benchmark.

The real bot application talks to it over HTTP through ``TELEGRAM_BASE_URL``,
exactly as it talks to Telegram: it long-polls ``getUpdates`` for the updates
a test offers, and every request it sends is checked against the published
spec (``tests/data/telegram/bot-api-10.1.json``): the method must exist, every
required field must be there, no field may be unknown, and each value must
have one of the documented types (objects and arrays checked field by field),
and a string no longer than its description allows ("1-4096 characters",
counted in UTF-16 code units as Telegram's entity offsets are; "1-64 bytes",
in UTF-8). A request that breaks the spec is answered with 400 and kept in
``violations``; tests assert that list stays empty.

It can also be made to fail on purpose (``go_down``): answer every request
with 502 Bad Gateway, or hold every request unanswered until the bot's own
timeout gives up on it; in both cases nothing is done or recorded, as with a
Telegram that is away. A test may also start it only after the bot (a fixed
``port``) or change its ``token`` (a token revoked under a running bot).

The fake also remembers every message the bot sent (so a test can tap a
button on it) and plays the users: messages with command entities, callback
queries, deep-link starts, chat migrations, photos and files (served by ``getFile`` and the file address
``<base>/file/bot<token>/<file_path>``, as Telegram serves them).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import socket
import struct
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlparse

import httpx
import tornado.httpserver
import tornado.web

from tests.files import SPEC

TOKEN = "123456:TEST-token-for-the-fake-api"
#: How long a test waits for the bot's answer (``FAKE_REPLY_TIMEOUT``: shorter to list failures fast)
REPLY_TIMEOUT = float(os.environ.get("FAKE_REPLY_TIMEOUT", "10"))
BOT_ID = 123456
BOT_USERNAME = "rummi_test_bot"

T = TypeVar("T")
Json = dict[str, Any]


# --- the spec -----------------------------------------------------------------------------------


class Spec:
    """The Bot API's methods and types, and checks of values against them."""

    def __init__(self, path: Path = SPEC) -> None:
        data = json.loads(path.read_text(encoding="utf-8"))
        self.version: str = data["version"]
        self.methods: dict[str, Json] = data["methods"]
        self.types: dict[str, Json] = data["types"]

    def fields(self, method: str) -> dict[str, Json]:
        return {f["name"]: f for f in self.methods[method].get("fields", [])}

    def check_request(self, method: str, params: dict[str, str], files: dict[str, bytes], form: bool) -> list[str]:
        """Problems with a request (empty when it follows the spec)."""
        if method not in self.methods:
            return [f"unknown method {method}"]
        spec = self.fields(method)
        problems = [f"{method}: missing required field {name}" for name, f in spec.items() if f["required"]]
        problems = [p for p in problems if p.rsplit(" ", 1)[1] not in params and p.rsplit(" ", 1)[1] not in files]
        for name in files:
            if name in spec:
                if "InputFile" not in spec[name]["types"]:
                    problems.append(f"{method}.{name}: a file was uploaded, but the field takes {spec[name]['types']}")
            elif not any(f"attach://{name}" in str(v) for v in params.values()):
                problems.append(f"{method}: uploaded file {name} is neither a field nor attached")
        for name, raw in params.items():
            if name not in spec:
                problems.append(f"{method}: unknown field {name}")
                continue
            types = spec[name]["types"]
            if not any(self._param_ok(raw, t, files, form) for t in types):
                problems.append(f"{method}.{name}: {str(raw)[:80]!r} is not {' or '.join(types)}")
            elif isinstance(raw, str):
                problems.extend(length_problems(spec[name], raw, f"{method}.{name}"))
        return problems

    def _param_ok(self, raw: Any, type_name: str, files: dict[str, bytes], form: bool) -> bool:
        if not form:
            return not self.check_value(raw, type_name, "")
        text = str(raw)
        if type_name == "String":
            return True
        if type_name == "Integer":
            return re.fullmatch(r"-?\d+", text) is not None
        if type_name == "Float":
            try:
                float(text)
            except ValueError:
                return False
            return True
        if type_name == "Boolean":
            return text in ("true", "false")
        if type_name == "InputFile":
            return text.startswith("attach://") and text[len("attach://") :] in files
        try:
            value = json.loads(text)
        except ValueError:
            return False
        return not self.check_value(value, type_name, "")

    def check_value(self, value: Any, type_name: str, path: str) -> list[str]:
        """Problems with a decoded JSON value of ``type_name`` (recursively, field by field)."""
        where = path or type_name
        if type_name.startswith("Array of "):
            if not isinstance(value, list):
                return [f"{where}: expected an array"]
            inner = type_name[len("Array of ") :]
            return [p for i, v in enumerate(value) for p in self.check_value(v, inner, f"{where}[{i}]")]
        simple: dict[str, Callable[[Any], bool]] = {
            "Integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "Float": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
            "String": lambda v: isinstance(v, str),
            "Boolean": lambda v: isinstance(v, bool),
            "True": lambda v: v is True,
            "InputFile": lambda v: isinstance(v, str),
        }
        if type_name in simple:
            return [] if simple[type_name](value) else [f"{where}: {value!r:.60} is not {type_name}"]
        spec = self.types.get(type_name)
        if spec is None:
            return [f"{where}: unknown type {type_name}"]
        if "subtypes" in spec:
            options = [self.check_value(value, sub, where) for sub in spec["subtypes"]]
            return [] if any(not o for o in options) else [f"{where}: matches no kind of {type_name}"]
        if not isinstance(value, dict):
            return [f"{where}: expected a {type_name} object"]
        fields = {f["name"]: f for f in spec.get("fields", [])}
        problems = [f"{where}: unknown field {k}" for k in value if k not in fields]
        for name, f in fields.items():
            if name not in value:
                if f["required"]:
                    problems.append(f"{where}: missing required field {name}")
                continue
            if isinstance(value[name], str):
                problems.extend(length_problems(f, value[name], f"{where}.{name}"))
            options = [self.check_value(value[name], t, f"{where}.{name}") for t in f["types"]]
            if all(options):
                problems.extend(options[0])
        return problems


def length_problems(field_spec: Json, text: str, where: str) -> list[str]:
    """A string field over (or under) the length its description gives, measured as Telegram measures it."""
    found = LENGTH.search(field_spec.get("description", ""))
    if found is None:
        return []
    low, high, unit = int(found[1]), int(found[2]), found[3]
    size = len(text.encode("utf-16-le")) // 2 if unit == "characters" else len(text.encode("utf-8"))
    if size > high:
        return [f"{where}: too long ({size} {unit}, at most {high})"]
    if size < low:
        return [f"{where}: too short ({size} {unit}, at least {low})"]
    return []


#: How the spec states a string's length: "1-4096 characters after entities parsing", "1-64 bytes".
LENGTH = re.compile(r"\b(\d+)-(\d+) (characters|bytes)\b")


# --- what the bot sent ----------------------------------------------------------------------------


@dataclass
class Call:
    """One request the bot made, its fields decoded by their documented types."""

    method: str
    params: Json
    files: dict[str, bytes]
    at: float
    result: Any = None

    @property
    def chat_id(self) -> int | None:
        chat = self.params.get("chat_id")
        return chat if isinstance(chat, int) else None

    @property
    def text(self) -> str:
        return str(self.params.get("text") or self.params.get("caption") or "")

    @property
    def photo(self) -> bytes | None:
        return self.files.get("photo")

    @property
    def buttons(self) -> list[Json]:
        markup = self.params.get("reply_markup") or {}
        return [b for row in markup.get("inline_keyboard", []) for b in row]

    def button(self, text: str) -> Json:
        """The inline button whose label contains ``text``."""
        for b in self.buttons:
            if text.lower() in b["text"].lower():
                return b
        raise AssertionError(f"no button {text!r} in {[b['text'] for b in self.buttons]}")

    @property
    def message_id(self) -> int:
        return int(self.result["message_id"]) if isinstance(self.result, dict) else 0


@dataclass
class User:
    id: int
    first_name: str
    username: str | None = None
    #: the language of the user's Telegram app (an IETF tag like ``de`` or ``pt-br``), as updates carry it
    language_code: str | None = None

    def to_json(self) -> Json:
        out: Json = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


@dataclass
class Chat:
    id: int
    type: str = "private"
    title: str | None = None

    def to_json(self, user: User | None = None) -> Json:
        out: Json = {"id": self.id, "type": self.type}
        if self.type == "private":
            out["first_name"] = user.first_name if user else "user"
        else:
            out["title"] = self.title or "a group"
        return out


def private(user: User) -> Chat:
    return Chat(user.id, "private")


class ApiFailure(Exception):
    """An answer with ok=false that a test asked the fake to give."""

    def __init__(self, code: int, description: str, parameters: Json | None = None) -> None:
        super().__init__(description)
        self.code, self.description, self.parameters = code, description, parameters


#: How long the fake keeps posting an update to a webhook that does not answer 200, in seconds.
HOOK_PATIENCE = 60.0
#: Update numbers, increasing across every fake of a test run (a bot restarted against a new fake must not
#: see numbers it already handled: Telegram never hands out the same one twice).
UPDATE_IDS = itertools.count(1)


@dataclass
class FakeBotApi:
    """The server: start it, point the bot at ``base_url``, offer updates, read ``calls``."""

    token: str = TOKEN
    spec: Spec = field(default_factory=Spec)
    calls: list[Call] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    offered_at: dict[int, float] = field(default_factory=dict)
    messages: dict[tuple[int, int], Json] = field(default_factory=dict)
    failures: dict[str, list[ApiFailure]] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    fetched: list[str] = field(default_factory=list)
    port: int = 0
    #: webhook mode: (url, secret) of each bot process, posted to in turn; empty: updates wait for getUpdates
    hooks: list[tuple[str, str]] = field(default_factory=list)
    delivered: list[int] = field(default_factory=list)
    undelivered: list[int] = field(default_factory=list)
    #: None, or how the fake is failing now: "502" (Bad Gateway to everything) or "timeout" (no answer)
    outage: str | None = None
    #: requests turned away by an outage, each attempt counted
    turned_away: int = 0

    def __post_init__(self) -> None:
        self._updates: list[Json] = []
        self._update_ids = UPDATE_IDS  # one sequence for every fake, as Telegram's own goes on over restarts
        self._message_ids = itertools.count(1000)
        self._changed: asyncio.Condition | None = None
        self._posting: dict[int, asyncio.Task[None]] = {}
        self._server: tornado.httpserver.HTTPServer | None = None
        self._confirmed = 0
        self._closing = False
        self._outage_changed: asyncio.Event | None = None

    # --- life ---

    async def start(self) -> None:
        self._changed = asyncio.Condition()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))  # 0: any free port
        sock.listen(1024)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        app = tornado.web.Application(
            [
                (r"/bot([^/]+)/(\w+)", _Handler, {"fake": self}),
                (r"/file/bot([^/]+)/(.+)", _FileHandler, {"fake": self}),
            ]
        )
        self._server = tornado.httpserver.HTTPServer(app)
        self._server.add_sockets([sock])

    async def end_polls(self) -> None:
        """Answer every long poll now, and later ones at once (a bot shutting down should not wait on us)."""
        self._closing = True
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    async def stop(self) -> None:
        await self.end_polls()  # long polls the bot gave up on end with [] rather than an error
        if self._server is not None:
            self._server.stop()
            await self._server.close_all_connections()
            self._server = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    def go_down(self, how: str | None) -> None:
        """Fail every request from now on: "502" (Bad Gateway at once) or "timeout" (held, unanswered, until
        the outage changes); None: answer again. Requests held so far are let go (and answered 504)."""
        if how not in (None, "502", "timeout"):
            raise ValueError(f"no such outage: {how}")
        self.outage = how
        if self._outage_changed is not None:
            self._outage_changed.set()
        self._outage_changed = asyncio.Event()

    async def turn_away(self) -> int | None:
        """During an outage: the status to answer once the request has been held as long as the outage says
        (the bot has given up on it by then); None when there is no outage."""
        if self.outage is None:
            return None
        self.turned_away += 1
        if self.outage == "timeout":
            assert self._outage_changed is not None
            await self._outage_changed.wait()
            return 504
        return 502

    # --- updates ---

    def offer(self, update: Json) -> int:
        """Queue an update for ``getUpdates``; returns its id (``offered_at`` has when)."""
        update = {"update_id": next(self._update_ids), **update}
        problems = self.spec.check_value(update, "Update", "Update")
        if problems:
            raise AssertionError(f"the test built an update that breaks the spec: {problems}")
        self.remember_user_message(update)
        self.offered_at[update["update_id"]] = time.perf_counter()
        if self.hooks:  # webhook mode: Telegram posts it (and posts again until it hears 200)
            target = self.hooks[int(update["update_id"]) % len(self.hooks)]
            # one chat's updates one after another (its next once the last is answered), chats at once
            chat = _chat_of(update)
            before = self._posting.get(chat)
            self._posting[chat] = asyncio.get_running_loop().create_task(self._post(target, update, before))
        else:
            self._updates.append(update)
            self._notify()
        return int(update["update_id"])

    async def _post(self, target: tuple[str, str], update: Json, after: asyncio.Task[None] | None) -> None:
        """Deliver one update to a webhook as Telegram does: POST with the secret header, again after a
        failure (a bot process down) until it is answered 200, for ``HOOK_PATIENCE`` seconds."""
        if after is not None:
            await asyncio.gather(after, return_exceptions=True)
        url, secret = target
        deadline = time.monotonic() + HOOK_PATIENCE
        async with httpx.AsyncClient() as client:
            while True:
                try:
                    response = await client.post(
                        url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret}, timeout=10
                    )
                    if response.status_code == 200:
                        self.delivered.append(int(update["update_id"]))
                        self._notify()
                        return
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    self.undelivered.append(int(update["update_id"]))
                    return
                await asyncio.sleep(0.2)

    def send(self, user: User, text: str, chat: Chat | None = None, *, reply_to: Json | None = None) -> int:
        """A user sends ``text`` (commands get their entity, as Telegram adds it)."""
        chat = chat or private(user)
        message = self.user_message(user, chat, text=text)
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        return self.offer({"message": message})

    def send_photo(
        self,
        user: User,
        sizes: list[tuple[int, int, bytes]],
        chat: Chat | None = None,
        *,
        caption: str | None = None,
        reply_to: Json | None = None,
        declared_size: int | None = None,
    ) -> int:
        """A user sends a photo: Telegram's sizes of it, each (width, height, JPEG bytes), smallest first.
        ``declared_size``: the file size the largest size claims (a photo too large to fetch)."""
        photo = []
        for i, (width, height, data) in enumerate(sizes):
            file_id = self.keep_file(data)
            size = declared_size if declared_size is not None and i == len(sizes) - 1 else len(data)
            photo.append({"file_id": file_id, "file_unique_id": f"u{file_id}", "width": width, "height": height,
                          "file_size": size})  # fmt: skip
        return self._send_media(user, chat, {"photo": photo}, caption, reply_to)

    def send_document(
        self,
        user: User,
        data: bytes,
        chat: Chat | None = None,
        *,
        file_name: str = "file",
        mime_type: str | None = None,
        caption: str | None = None,
    ) -> int:
        """A user sends a file (not compressed as a photo)."""
        file_id = self.keep_file(data)
        document: Json = {"file_id": file_id, "file_unique_id": f"u{file_id}", "file_name": file_name,
                          "file_size": len(data)}  # fmt: skip
        if mime_type is not None:
            document["mime_type"] = mime_type
        return self._send_media(user, chat, {"document": document}, caption, None)

    def keep_file(self, data: bytes) -> str:
        """Keep bytes for ``getFile`` and the file address; returns their file id."""
        file_id = f"file{len(self.files) + 1}"
        self.files[file_id] = data
        return file_id

    def _send_media(
        self, user: User, chat: Chat | None, content: Json, caption: str | None, reply_to: Json | None
    ) -> int:
        chat = chat or private(user)
        message = self.user_message(user, chat, **content)
        if caption is not None:
            message["caption"] = caption
            if caption.startswith("/"):
                length = len(caption.split()[0].encode("utf-16-le")) // 2
                message["caption_entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        return self.offer({"message": message})

    def user_message(self, user: User, chat: Chat, **content: Any) -> Json:
        message: Json = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat.to_json(user),
            "from": user.to_json(),
            **content,
        }
        text = content.get("text")
        if isinstance(text, str) and text.startswith("/"):
            command = text.split()[0]
            length = len(command.encode("utf-16-le")) // 2
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        return message

    def tap(self, user: User, call: Call, button: str) -> int:
        """A user taps an inline button of a message the bot sent; returns the update id."""
        b = call.button(button)
        if "callback_data" not in b:
            raise AssertionError(f"button {b['text']!r} is not a callback button: {b}")
        message = self.messages[(int(call.params["chat_id"]), call.message_id)]
        query = {
            "id": str(next(self._update_ids) * 7919),
            "from": user.to_json(),
            "message": message,
            "chat_instance": f"ci{message['chat']['id']}",
            "data": b["callback_data"],
        }
        return self.offer({"callback_query": query})

    def follow(self, user: User, call: Call, button: str) -> int:
        """A user opens a deep link button (t.me/<bot>?start=X): Telegram sends /start X in the private chat."""
        url = call.button(button).get("url", "")
        parsed = urlparse(url)
        if parsed.netloc != "t.me" or parsed.path != f"/{BOT_USERNAME}":
            raise AssertionError(f"not a link to this bot: {url}")
        payload = parse_qs(parsed.query)["start"][0]
        return self.send(user, f"/start {payload}")

    def fail_next(self, method: str, code: int, description: str, parameters: Json | None = None) -> None:
        """Answer the next call of ``method`` with an error (e.g. 400 with migrate_to_chat_id)."""
        self.failures.setdefault(method, []).append(ApiFailure(code, description, parameters))

    # --- waiting on the bot ---

    async def wait_for(self, found: Callable[[], T | None], timeout: float = REPLY_TIMEOUT, what: str = "a reply") -> T:
        """Wait until ``found()`` returns something (checked after every request), or fail."""
        assert self._changed is not None
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                value = found()
                if value is not None:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out after {timeout}s waiting for {what}; calls: {self.summary()}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)

    def mark(self) -> int:
        """A position in ``calls``; ``reply`` looks only at later calls."""
        return len(self.calls)

    def sent(self, chat_id: int, since: int = 0, methods: Iterable[str] = ("sendMessage", "sendPhoto")) -> list[Call]:
        wanted = set(methods)
        return [c for c in self.calls[since:] if c.method in wanted and c.chat_id == chat_id]

    async def reply(
        self,
        chat_id: int,
        since: int,
        methods: Iterable[str] = ("sendMessage", "sendPhoto"),
        timeout: float = REPLY_TIMEOUT,
    ) -> Call:
        """The first message the bot sent to ``chat_id`` after ``since``."""
        wanted = tuple(methods)
        return await self.wait_for(
            lambda: next(iter(self.sent(chat_id, since, wanted)), None), timeout, f"{wanted} to chat {chat_id}"
        )

    async def call(self, method: str, since: int, timeout: float = REPLY_TIMEOUT) -> Call:
        """The first call of ``method`` after ``since`` (for calls without a chat, like answerCallbackQuery)."""
        return await self.wait_for(
            lambda: next((c for c in self.calls[since:] if c.method == method), None), timeout, method
        )

    async def replies(self, chat_id: int, since: int, count: int, timeout: float = 10.0) -> list[Call]:
        def enough() -> list[Call] | None:
            got = self.sent(chat_id, since)
            return got if len(got) >= count else None

        return await self.wait_for(enough, timeout, f"{count} messages to chat {chat_id}")

    async def consumed(self, update_id: int, timeout: float = 10.0) -> None:
        """Wait until the bot has fetched ``update_id`` (its next getUpdates offset is past it)."""
        await self.wait_for(lambda: True if self._confirmed > update_id else None, timeout, f"update {update_id}")

    def summary(self) -> str:
        return ", ".join(f"{c.method}({c.chat_id}: {c.text[:40]!r})" for c in self.calls[-12:])

    def _notify(self) -> None:
        if self._changed is None:
            return
        changed = self._changed

        async def wake() -> None:
            async with changed:
                changed.notify_all()

        asyncio.get_running_loop().create_task(wake())

    # --- answering the bot ---

    async def get_updates(self, params: Json) -> list[Json]:
        offset = int(params.get("offset") or 0)
        limit = int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)
        assert self._changed is not None
        deadline = time.monotonic() + timeout
        self._confirmed = max(self._confirmed, offset)
        self._updates = [u for u in self._updates if u["update_id"] >= offset]
        async with self._changed:
            while not self._updates and not self._closing:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(self._changed.wait(), left)
                except TimeoutError:
                    break
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
        return self._updates[:limit]

    async def answer(self, method: str, params: Json, files: dict[str, bytes]) -> Any:
        pending = self.failures.get(method)
        if pending:
            raise pending.pop(0)
        if method == "getUpdates":
            return await self.get_updates(params)
        if method == "getMe":
            return {
                "id": BOT_ID,
                "is_bot": True,
                "first_name": "Rummi",
                "username": BOT_USERNAME,
                "can_join_groups": True,
                "can_read_all_group_messages": False,
                "supports_inline_queries": False,
            }
        if method in ("sendMessage", "sendPhoto"):
            return self._store_message(params, files)
        if method == "getFile":
            file_id = str(params.get("file_id"))
            if file_id not in self.files:
                raise ApiFailure(400, "Bad Request: invalid file_id")
            data = self.files[file_id]
            found: Json = {"file_id": file_id, "file_unique_id": f"u{file_id}", "file_size": len(data),
                           "file_path": f"photos/{file_id}.jpg"}  # fmt: skip
            assert not self.spec.check_value(found, "File", "File"), "the fake's File breaks the spec"
            return found
        if method in ("editMessageReplyMarkup", "editMessageCaption", "editMessageText"):
            key = (int(params.get("chat_id", 0)), int(params.get("message_id", 0)))
            message = self.messages.get(key)
            if message is None:
                raise ApiFailure(400, "Bad Request: message to edit not found")
            for name in ("reply_markup", "caption", "text"):
                if name in params:
                    message[name] = params[name]
            if "reply_markup" in self.spec.fields(method) and "reply_markup" not in params:
                message.pop("reply_markup", None)
            return message
        returns = self.spec.methods[method].get("returns", [])
        if "Boolean" in returns or "True" in returns:
            return True
        raise ApiFailure(501, f"the fake does not implement {method}")

    def _store_message(self, params: Json, files: dict[str, bytes]) -> Json:
        chat_id = params["chat_id"]
        if not isinstance(chat_id, int):
            raise ApiFailure(400, "Bad Request: chat not found")
        chat: Json = {"id": chat_id, "type": "private" if chat_id > 0 else "supergroup"}
        if chat_id > 0:
            chat["first_name"] = "user"
        else:
            chat["title"] = "a group"
        message: Json = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Rummi", "username": BOT_USERNAME},
        }
        if "text" in params:
            message["text"] = params["text"]
        if "photo" in params or "photo" in files:
            data = files.get("photo", b"")
            width, height = png_size(data)
            message["photo"] = [
                {
                    "file_id": f"photo{message['message_id']}",
                    "file_unique_id": f"u{message['message_id']}",
                    "width": width,
                    "height": height,
                    "file_size": len(data),
                }
            ]
            if "caption" in params:
                message["caption"] = params["caption"]
        if "reply_markup" in params:
            message["reply_markup"] = params["reply_markup"]
        reply = params.get("reply_parameters")
        if isinstance(reply, dict):
            quoted = self.messages.get((chat_id, int(reply["message_id"])))
            if quoted is not None:
                message["reply_to_message"] = {k: v for k, v in quoted.items() if k != "reply_to_message"}
        self.messages[(chat_id, message["message_id"])] = message
        return message

    def remember_user_message(self, update: Json) -> None:
        message = update.get("message")
        if isinstance(message, dict):
            self.messages[(message["chat"]["id"], message["message_id"])] = message

    def record(self, call: Call) -> None:
        self.calls.append(call)
        self._notify()


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG header (0, 0 when it is not a PNG)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return (0, 0)
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


class _Handler(tornado.web.RequestHandler):
    """Every Bot API request: check it against the spec, record it, answer it."""

    def initialize(self, fake: FakeBotApi) -> None:
        self.fake = fake

    async def get(self, token: str, method: str) -> None:
        await self.post(token, method)

    async def post(self, token: str, method: str) -> None:
        fake = self.fake
        status = await fake.turn_away()
        if status is not None:  # Telegram is away: nothing is done, nothing recorded
            self._finish(status, {"ok": False, "error_code": status, "description": HTTPStatus(status).phrase})
            return
        if token != fake.token:
            fake.violations.append(f"{method}: wrong token")
            self._finish(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
            return
        method = next((m for m in fake.spec.methods if m.lower() == method.lower()), method)
        content_type = self.request.headers.get("Content-Type", "")
        files = {name: parts[0]["body"] for name, parts in self.request.files.items()}
        if content_type.startswith("application/json"):
            raw: dict[str, Any] = json.loads(self.request.body or b"{}")
            form = False
        else:
            raw = {k: v[-1].decode("utf-8") for k, v in self.request.arguments.items()}
            form = True
        problems = fake.spec.check_request(method, raw, files, form)
        if problems:
            fake.violations.extend(problems)
            self._finish(400, {"ok": False, "error_code": 400, "description": "; ".join(problems)})
            return
        params = _decode(fake.spec, method, raw) if form else raw
        call = Call(method, params, files, time.perf_counter())
        try:
            result = await fake.answer(method, params, files)
        except ApiFailure as failure:
            call.result = failure
            fake.record(call)
            body: Json = {"ok": False, "error_code": failure.code, "description": failure.description}
            if failure.parameters:
                body["parameters"] = failure.parameters
            self._finish(failure.code, body)
            return
        except asyncio.CancelledError:
            raise
        call.result = result
        if method != "getUpdates":
            fake.record(call)
        self._finish(200, {"ok": True, "result": result})

    def _finish(self, status: int, body: Json) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(body))

    def on_connection_close(self) -> None:  # a long poll the bot gave up on
        pass


class _FileHandler(tornado.web.RequestHandler):
    """A file's bytes at ``/file/bot<token>/<file_path>`` (the path ``getFile`` gave)."""

    def initialize(self, fake: FakeBotApi) -> None:
        self.fake = fake

    async def get(self, token: str, path: str) -> None:
        fake = self.fake
        if token != fake.token:
            fake.violations.append(f"file {path}: wrong token")
            self.set_status(401)
            self.finish()
            return
        m = re.fullmatch(r"photos/(\w+)\.jpg", path)
        if m is None or m.group(1) not in fake.files:
            self.set_status(404)
            self.finish()
            return
        fake.fetched.append(m.group(1))
        self.set_header("Content-Type", "application/octet-stream")
        self.finish(fake.files[m.group(1)])


def _decode(spec: Spec, method: str, raw: dict[str, Any]) -> Json:
    """Form values back into JSON values, by the field's documented types."""
    fields = spec.fields(method)
    out: Json = {}
    for name, text in raw.items():
        types = fields[name]["types"]
        value: Any = text
        if "Integer" in types and re.fullmatch(r"-?\d+", text):
            value = int(text)
        elif "Float" in types:
            value = float(text)
        elif "Boolean" in types:
            value = text == "true"
        elif types != ["String"] and text[:1] in "[{":
            value = json.loads(text)
        out[name] = value
    return out


def _chat_of(update: Json) -> int:
    """The chat an update belongs to (a button's: its message's chat)."""
    if "message" in update:
        return int(update["message"]["chat"]["id"])
    query = update.get("callback_query", {})
    message = query.get("message")
    if message is not None:
        return int(message["chat"]["id"])
    return int(query.get("from", {}).get("id", 0))
