-- hoplock fence table for H2 (2.x): the highest fencing token accepted per resource.
--   resource    the name the application gave the fenced resource (at most 255 characters)
--   token       the highest token accepted so far; a check with a lower token is refused
--   holder      the lease owner that checked with that token (NULL: a check without a holder); an equal token
--               from another holder is refused. Tables created before this column: add it with
--               ALTER TABLE hoplock_fence ADD COLUMN holder VARCHAR(255)
--   updated_at  when the token was last recorded, by the database clock (for operators only)
CREATE TABLE IF NOT EXISTS hoplock_fence (
    resource   VARCHAR(255) NOT NULL PRIMARY KEY,
    token      BIGINT       NOT NULL,
    holder     VARCHAR(255),
    updated_at TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);
