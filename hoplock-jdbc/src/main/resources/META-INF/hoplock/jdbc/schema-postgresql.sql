-- hoplock lease table for PostgreSQL (9.5 and later). One row per lease key.
--   lease_key   the lease key (ASCII, case-sensitive, at most 512 characters)
--   content     the lease record exactly as the elector wrote it (UTF-8 JSON; bytea so that bytes round-trip)
--   version     the compare-and-swap handle: a random UUID, new on every write, never reused
--   updated_at  when the row was last written, by the database clock (for operators only; hoplock never reads it)
-- See it as text: SELECT lease_key, convert_from(content, 'UTF8'), version, updated_at FROM hoplock_lease;
CREATE TABLE IF NOT EXISTS hoplock_lease (
    lease_key  VARCHAR(512) NOT NULL PRIMARY KEY,
    content    BYTEA        NOT NULL,
    version    VARCHAR(64)  NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT CURRENT_TIMESTAMP
);
