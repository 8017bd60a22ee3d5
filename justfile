# The same recipes as `cargo xtask`, for those who have `just`.

# Build and serve the product on the embedded default (SQLite + embedded index under ./data).
run *ARGS:
    cargo xtask run {{ARGS}}

# Lint, bring up PostgreSQL and Chromium, run the whole suite.
test:
    cargo xtask test

# Every benchmark, printing its figures.
bench:
    cargo xtask bench

# cargo fmt --check and clippy -D warnings.
lint:
    cargo xtask lint

# Bring up PostgreSQL for tests and print its URL.
pg:
    cargo xtask pg

# Bring up Chromium and chromedriver for the browser tests and print their variables.
chromium:
    cargo xtask chromium
