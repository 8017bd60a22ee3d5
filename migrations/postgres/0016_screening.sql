-- Screening answers (reference assistant.md §10.5; issue 16): the facts application forms ask
-- (work authorisation, visa, desired salary, notice period, relocation, age), one JSON object
-- per account. A field absent from the object is "not stated". Written only by a merge patch
-- (`jsonb_strip_nulls(screening_answers || patch)`), so two partial updates never lose each
-- other's fields.
ALTER TABLE users ADD COLUMN screening_answers jsonb NOT NULL DEFAULT '{}'::jsonb;
