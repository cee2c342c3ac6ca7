package dev.hoplock.jdbc;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A table name that is safe to put into SQL text: an unquoted identifier, optionally qualified by a schema
 * ({@code hoplock_lease}, {@code ops.hoplock_lease}). Each part starts with a letter or {@code _} and has at most 63
 * letters, digits or {@code _} (PostgreSQL's limit). Statements use it unquoted, so the database applies its usual
 * case folding, exactly as for the shipped DDL.
 *
 * @param value the name as written in SQL
 */
record TableName(String value) {

    private static final Pattern RULE = Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,62}");

    TableName {
        Objects.requireNonNull(value, "table name");
        if (!RULE.matcher(value).matches()) {
            throw new IllegalArgumentException("table name '" + value + "' is invalid: use letters, digits and '_',"
                    + " starting with a letter or '_', at most 63 characters, optionally prefixed by a schema name"
                    + " and '.' (for example hoplock_lease or ops.hoplock_lease)");
        }
    }

    /** The DDL text with the default table name replaced by this one. */
    String applyTo(String ddl, String defaultName) {
        return ddl.replaceAll("\\b" + Pattern.quote(defaultName) + "\\b", value);
    }

    @Override
    public String toString() {
        return value;
    }
}
