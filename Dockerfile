# The bot for docker-compose.yml: `trpgbot run` with the `postgres` extra, as an unprivileged
# user. `trpgbot run` brings the database schema to the newest revision itself at every start
# (Core.open -> bot/store/db.py upgrade), so the image has no separate migration step.
# tests/test_deploy.py checks this file against pyproject.toml.

ARG PYTHON_VERSION=3.11

# Build the project's wheel from exactly the files pyproject.toml packages.
FROM python:${PYTHON_VERSION}-slim-bookworm AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot/ bot/
COPY adapters/ adapters/
COPY rules/ rules/
COPY migrations/ migrations/
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:${PYTHON_VERSION}-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# the CJK font the battle map picture writes names with (bot/kits/field_picture.py)
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-wqy-microhei \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /wheels
RUN pip install "$(ls /wheels/trpgbot-*.whl)[postgres]" && rm -rf /wheels

# uid 10001: no account of the host; /app/data is the bot's data volume (SQLite, if it is ever
# used instead of PostgreSQL) and must belong to that user before the volume is first created.
RUN groupadd --system --gid 10001 trpgbot \
    && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin trpgbot \
    && mkdir -p /app/data \
    && chown trpgbot:trpgbot /app/data
WORKDIR /app
ENV TRPGBOT_DATA_DIR=/app/data
USER 10001:10001

# OneBot v11 reverse WebSocket (ws://<host>:8080/onebot/v11/ws) for NapCat.
EXPOSE 8080
CMD ["trpgbot", "run"]
