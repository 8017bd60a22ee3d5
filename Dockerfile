# syntax=docker/dockerfile:1

# One image with the three binaries: freehire-api (the default command), freehire-worker and
# freehire (the CLI). Build it with `docker build -t freehire .`; run it as described in
# docs/operations.md, "Deployment: the container image and compose". `cargo xtask run` does not
# need it.

# Keep the two in step: the runtime stage must be the Debian release the binaries were linked on.
ARG RUST_VERSION=1.95
ARG DEBIAN_RELEASE=bookworm

FROM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS build

# Nothing to install: the slim image's gcc and libc6-dev are all the C the build needs
# (aws-lc-sys through its cc builder with pregenerated sources and bindings, so no cmake,
# perl, clang or Go; SQLite bundled; ring's and psm's assembly). TLS is rustls everywhere: no
# OpenSSL, no pkg-config. Typst's fonts are compiled into the binary.
WORKDIR /src
COPY . .

# Cargo's registry, git checkouts and target directory live in BuildKit caches, so a rebuild
# downloads nothing again and recompiles only what changed. The cached target directory is
# not part of the image: the binaries are copied out in the same step.
ARG TARGETARCH
RUN --mount=type=cache,id=freehire-cargo-registry,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,id=freehire-cargo-git,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,id=freehire-target-${TARGETARCH},target=/src/target,sharing=locked \
    cargo build --release --locked -p freehire-api-server -p freehire-worker -p freehire \
    && mkdir -p /out \
    && cp target/release/freehire-api target/release/freehire-worker target/release/freehire /out/

FROM debian:${DEBIAN_RELEASE}-slim

LABEL org.opencontainers.image.title="freehire" \
      org.opencontainers.image.description="freehire: the API server, the ingest worker and the CLI" \
      org.opencontainers.image.source="https://github.com/freehire/freehire-rs" \
      org.opencontainers.image.licenses="AGPL-3.0-or-later"

# ca-certificates: every outbound HTTPS connection (the ATS platforms, the model endpoint,
# SMTP, webhooks, Sentry) is verified by rustls-platform-verifier, which on Linux reads the
# system's certificate store. Not pinned (DL3008): the store must stay current.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*

# A fixed non-root user, so a bind-mounted data folder can be chowned to it ahead of time.
RUN groupadd --gid 10001 freehire \
    && useradd --uid 10001 --gid 10001 --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin freehire \
    && mkdir /data \
    && chown 10001:10001 /data

COPY --from=build /out/ /usr/local/bin/

# The embedded default, under /data: the SQLite file (with session.key beside it), the search
# index the worker writes and the API reads, and the mail the file mailer writes. Compose
# points the database and the search engine at PostgreSQL and Meilisearch instead.
ENV FREEHIRE_DATABASE_URL=sqlite:///data/freehire.db \
    FREEHIRE_INDEX_DIR=/data/index \
    FREEHIRE_MAIL_DIR=/data/mail \
    FREEHIRE_LISTEN=0.0.0.0:8080

WORKDIR /data
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080

# No HEALTHCHECK here: the worker and the CLI run from this image too, and they serve no
# /health. compose.yaml checks the API's GET /health itself.
CMD ["freehire-api"]
