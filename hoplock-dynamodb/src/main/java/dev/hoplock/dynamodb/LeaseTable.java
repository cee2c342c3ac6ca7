package dev.hoplock.dynamodb;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.LeaseKeys;
import org.jspecify.annotations.Nullable;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where the lease items live: one table (its name, region and endpoint), the name of its partition key attribute, and
 * an optional prefix of every item key. Maps lease keys to item keys and names them in messages. Holds no credentials,
 * so everything it prints is safe to log.
 */
final class LeaseTable {

    /** The partition key attribute used when none is set. */
    static final String DEFAULT_KEY_ATTRIBUTE = "lease_key";
    /** DynamoDB's limit on a partition key value, in UTF-8 bytes. */
    static final int MAX_KEY_BYTES = 2048;

    private static final Pattern TABLE_NAME = Pattern.compile("[a-zA-Z0-9_.-]{3,255}");
    private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[a-zA-Z0-9_.-]{1,255}");

    private final String name;
    private final String keyAttribute;
    private final String prefix;
    private final Optional<URI> endpoint;
    private final String region;

    LeaseTable(@Nullable String name, @Nullable String keyAttribute, @Nullable String prefix, Optional<URI> endpoint,
            @Nullable String region) {
        this.name = validateName(name);
        this.keyAttribute = validateKeyAttribute(keyAttribute);
        this.prefix = validatePrefix(prefix);
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint").map(LeaseTable::withoutSecrets);
        this.region = region == null ? "" : region;
    }

    String name() {
        return name;
    }

    String keyAttribute() {
        return keyAttribute;
    }

    String region() {
        return region;
    }

    /** The partition key value of a lease key: the prefix followed by the key, exactly. */
    String itemKey(String leaseKey) {
        return prefix + LeaseKeys.validate(leaseKey);
    }

    /** The table's ARN as far as it is known here (the account is not), for IAM messages. */
    String arn() {
        return "arn:aws:dynamodb:" + (region.isEmpty() ? "<region>" : region) + ":<account>:table/" + name;
    }

    /** The endpoint in a form fit for messages: the override URI, or AWS's endpoint for the region. */
    String endpointDescription() {
        return endpoint.map(URI::toString)
                .orElse(region.isEmpty() ? "the AWS DynamoDB endpoint" : "DynamoDB in " + region);
    }

    /** {@code dynamodb table <name>, keys <prefix>*}, followed by where. */
    String describe() {
        return "dynamodb table " + name + (prefix.isEmpty() ? "" : " (keys " + prefix + "*)") + " "
                + endpoint.map(uri -> "at " + uri).orElse(region.isEmpty() ? "on AWS" : "in " + region);
    }

    /** {@code table <name>, item <key>}, for messages about one item. */
    String item(String itemKey) {
        return "item " + keyAttribute + "='" + itemKey + "' of the table " + name;
    }

    private static String validateName(@Nullable String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidSettingException("table", name, null, "must be set to the table's name",
                    "no DynamoDB table configured: call table(\"...\")");
        }
        if (!TABLE_NAME.matcher(name).matches()) {
            throw new InvalidSettingException("table", name, null,
                    "must be 3 to 255 letters, digits, '_', '-' or '.' (DynamoDB's rule)",
                    "the DynamoDB table name '" + name + "' must be 3 to 255 letters, digits, '_', '-' or '.'");
        }
        return name;
    }

    private static String validateKeyAttribute(@Nullable String attribute) {
        String value = attribute == null || attribute.isBlank() ? DEFAULT_KEY_ATTRIBUTE : attribute;
        if (!ATTRIBUTE_NAME.matcher(value).matches() || value.equals(LeaseItem.RECORD)
                || value.equals(LeaseItem.VERSION)) {
            throw new InvalidSettingException("keyAttribute", value, null, "must be 1 to 255 letters, digits, '_',"
                    + " '-' or '.', and neither '" + LeaseItem.RECORD + "' nor '" + LeaseItem.VERSION + "'",
                    "the partition key attribute '" + value + "' must be 1 to 255 letters, digits, '_', '-' or '.',"
                            + " and neither '" + LeaseItem.RECORD + "' nor '" + LeaseItem.VERSION + "' (hoplock's own"
                            + " attributes)");
        }
        return value;
    }

    private static String validatePrefix(@Nullable String prefix) {
        if (prefix == null) {
            return "";
        }
        if (prefix.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidSettingException("prefix", null, null, "must not contain control characters",
                    "the item key prefix must not contain control characters");
        }
        int limit = MAX_KEY_BYTES - LeaseKeys.MAX_LENGTH;
        if (prefix.getBytes(StandardCharsets.UTF_8).length > limit) {
            throw new InvalidSettingException("prefix", prefix, limit, "is too long: prefix plus a lease key must fit"
                    + " DynamoDB's " + MAX_KEY_BYTES + "-byte partition key limit", "the item key prefix is too"
                    + " long: prefix plus a lease key of up to " + LeaseKeys.MAX_LENGTH + " characters must fit"
                    + " DynamoDB's " + MAX_KEY_BYTES + "-byte partition key limit");
        }
        return prefix;
    }

    /** Drops user info, query and fragment, so that a URI with embedded credentials never reaches a message. */
    private static URI withoutSecrets(URI uri) {
        if (uri.getHost() == null) {
            return URI.create(uri.getScheme() == null ? "endpoint" : uri.getScheme() + "://endpoint");
        }
        String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        return URI.create(uri.getScheme() + "://" + uri.getHost() + port + path);
    }
}
