"""Settings from the environment or `.env` (see `.env.example`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE = Path("data") / "rummikub.sqlite3"
MIN_SOLVER_MEMORY = 512


class Settings(BaseSettings):
    """Everything the bot reads from its environment; nothing else is configured."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_bot_token: SecretStr | None = None
    database_url: str = f"sqlite+aiosqlite:///{DEFAULT_DATABASE}"
    telegram_base_url: str | None = Field(
        default=None, description="PTB's base_url, e.g. http://127.0.0.1:8081/bot (the token is appended)"
    )
    telegram_base_file_url: str | None = Field(
        default=None,
        description="PTB's base_file_url, where files (photos) are fetched; default: TELEGRAM_BASE_URL with "
        "its /bot turned into /file/bot, as Telegram's own addresses are",
    )
    solver_time_limit: float = Field(default=5.0, gt=0, le=120)
    solver_memory_limit: int = Field(
        default=2048, description="MiB of address space a solver process may use (0: no cap, else at least 512)"
    )
    log_level: str = "INFO"
    webhook_url: str | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = Field(default=8443, ge=1, le=65535)
    webhook_secret: SecretStr | None = Field(
        default=None, description="Telegram's secret_token; when unset, one is derived from the token"
    )
    claim_seconds: float = Field(
        default=15.0, gt=0, le=300, description="how long a dead process's chats wait before another takes them"
    )
    answer_retry_seconds: float = Field(
        default=600.0,
        gt=0,
        le=86400,
        description="how long an answer Telegram cannot take (an outage) is tried again before it is dropped",
    )
    health_path: str = Field(
        default="/health", pattern=r"^/[A-Za-z0-9._~/-]*$", description="webhook mode: the health check's GET path"
    )

    @property
    def file_url(self) -> str | None:
        """Where the bot fetches files from, when not from Telegram itself (None: PTB's default)."""
        if self.telegram_base_file_url:
            return self.telegram_base_file_url
        base = self.telegram_base_url
        if base and base.rstrip("/").endswith("/bot"):
            return base.rstrip("/")[: -len("bot")] + "file/bot"
        return None

    @field_validator("solver_memory_limit")
    @classmethod
    def _room_to_start(cls, mib: int) -> int:
        """A solver process needs some 300 MiB of address space just to start (SCIP, Pillow, Python)."""
        if mib != 0 and mib < MIN_SOLVER_MEMORY:
            raise ValueError(f"must be 0 (no cap) or at least {MIN_SOLVER_MEMORY} MiB")
        return mib
