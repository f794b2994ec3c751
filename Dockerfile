# The bot as a container image: `docker build -t boulanger .`, then see compose.yaml.
# Settings come from the environment (see .env.example); nothing secret is baked in.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY engine engine
COPY renderer renderer
COPY storage storage
COPY bot bot
RUN pip install . \
    && useradd --create-home --uid 10001 boulanger \
    && mkdir -p /app/data \
    && chown boulanger /app/data

USER boulanger
# SQLite lives here when BOULANGER_DATABASE_URL is not set (mount a volume on it).
VOLUME ["/app/data"]
ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
