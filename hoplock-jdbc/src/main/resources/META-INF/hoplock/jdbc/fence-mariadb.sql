-- hoplock fence table for MariaDB (10.2 and later) and MySQL (5.7 and later), InnoDB: the highest fencing token
-- accepted per resource.
--   resource    the name the application gave the fenced resource (at most 255 characters; binary collation, so
--               that names differing only in case are different resources)
--   token       the highest token accepted so far; a check with a lower token is refused
--   holder      the lease owner that checked with that token (NULL: a check without a holder); an equal token
--               from another holder is refused. Tables created before this column: add it with
--               ALTER TABLE hoplock_fence ADD COLUMN holder VARCHAR(255)
--   updated_at  when the token was last recorded, by the database clock (for operators only)
CREATE TABLE IF NOT EXISTS hoplock_fence (
    resource   VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
    token      BIGINT      NOT NULL,
    holder     VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    updated_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
) ENGINE = InnoDB;
