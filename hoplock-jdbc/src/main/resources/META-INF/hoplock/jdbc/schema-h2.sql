-- hoplock lease table for H2 (2.x). One row per lease key.
--   lease_key   the lease key (ASCII, case-sensitive, at most 512 characters)
--   content     the lease record exactly as the elector wrote it (UTF-8 JSON, as bytes)
--   version     the compare-and-swap handle: a random UUID, new on every write, never reused
--   updated_at  when the row was last written, by the database clock (for operators only; hoplock never reads it)
CREATE TABLE IF NOT EXISTS hoplock_lease (
    lease_key  VARCHAR(512)   NOT NULL PRIMARY KEY,
    content    VARBINARY      NOT NULL,
    version    VARCHAR(64)    NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);
