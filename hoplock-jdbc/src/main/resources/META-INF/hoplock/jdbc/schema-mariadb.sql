-- hoplock lease table for MariaDB (10.2 and later) and MySQL (5.7 and later), InnoDB. One row per lease key.
--   lease_key   the lease key: ASCII with a binary collation, because lease keys are case-sensitive
--               (the server's default collation would make "a/leader" and "a/LEADER" one row)
--   content     the lease record exactly as the elector wrote it (UTF-8 JSON; a blob so that bytes round-trip)
--   version     the compare-and-swap handle: a random UUID, new on every write, never reused
--   updated_at  when the row was last written, by the database clock (for operators only; hoplock never reads it)
-- See it as text: SELECT lease_key, CONVERT(content USING utf8mb4), version, updated_at FROM hoplock_lease;
CREATE TABLE IF NOT EXISTS hoplock_lease (
    lease_key  VARCHAR(512) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
    content    MEDIUMBLOB  NOT NULL,
    version    VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    updated_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
) ENGINE = InnoDB;
