-- Cover letters (reference assistant.md §10.6 `cover_letter_draft`; issue 16): at most one per
-- user and vacancy, replaced in place when drafted again (its id and `created_at` kept). The
-- letter is JSON (`freehire_cv::letter::Letter`: greeting, paragraphs each citing the
-- achievements it rests on, closing, signature). Deleted with its user or its job.
CREATE TABLE cover_letters (
    id         bigserial   PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    job_id     bigint      NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    band       text        NOT NULL,
    letter     jsonb       NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT cover_letters_band_check CHECK (band IN ('short', 'standard')),
    CONSTRAINT cover_letters_user_job UNIQUE (user_id, job_id)
);
CREATE INDEX cover_letters_user_updated_idx ON cover_letters (user_id, updated_at DESC);
