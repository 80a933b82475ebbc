# syntax=docker/dockerfile:1
# deckcheck: the API with the bundled card data and Forbidden/Limited lists, installed from its wheel.
FROM python:3.11-slim AS wheel

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY service/ service/
COPY cards/ cards/
COPY banlists/ banlists/
COPY provenance/ provenance/
# The data travel inside the wheel (tests/test_wheel.py installs one built the same way, from the sdist).
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /dist .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Paper at the desk: Tesseract's English language data, which reads a count's digits again, and poppler's pdftoppm
# and pdftotext for reading PDFs (POST /v1/decks/read). Not pinned: the base image follows Debian stable, whose packages
# change only for security fixes, and a pinned version disappears from the archive when one lands.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends tesseract-ocr-eng poppler-utils \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 deckcheck
# Mounted, not copied: the wheel leaves no layer behind once installed.
RUN --mount=type=bind,from=wheel,source=/dist,target=/tmp/dist pip install --no-cache-dir "$(ls /tmp/dist/*.whl)[paper]"

USER 10001
WORKDIR /home/deckcheck
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"]
CMD ["deckcheck", "serve", "--host", "0.0.0.0", "--port", "8000"]
