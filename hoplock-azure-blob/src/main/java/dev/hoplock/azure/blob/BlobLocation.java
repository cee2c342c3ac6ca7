package dev.hoplock.azure.blob;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.LeaseKeys;
import org.jspecify.annotations.Nullable;

import java.net.URI;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where the lease blobs live: one storage account (its blob endpoint), one container and an optional name prefix. Maps
 * lease keys to blob names and names them in messages. Holds no credentials and keeps no query string, so everything
 * it prints is safe to log.
 *
 * <p>Blob name of a lease key: the prefix, then the key with {@code ~} appended to every segment that ends in a dot.
 * Azure Storage drops trailing dots from blob names ({@code a.} is stored as {@code a}), so two valid lease keys,
 * {@code x/a.} and {@code x/a}, would share one blob without it; {@code ~} cannot occur in a lease key, so the mapping
 * stays one to one.
 */
final class BlobLocation {

    /** Azure's limit on a blob name, in characters. */
    static final int MAX_BLOB_NAME = 1024;
    /** The longest escaped key: every segment of a longest key may gain one character. */
    static final int MAX_ESCAPED_KEY = LeaseKeys.MAX_LENGTH + (LeaseKeys.MAX_LENGTH + 1) / 2;
    /** The longest prefix that leaves room for the longest escaped key. */
    static final int MAX_PREFIX = MAX_BLOB_NAME - MAX_ESCAPED_KEY;

    private static final Pattern CONTAINER = Pattern.compile("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]|\\$root");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._/-]*");
    private static final String CONTAINER_RULE = "must be a container name of 3 to 63 lower-case letters, digits and"
            + " single hyphens, starting and ending with a letter or digit (Azure's rule), for example 'hoplock'";

    private final String accountUrl;
    private final String container;
    private final String prefix;

    BlobLocation(String accountUrl, @Nullable String container, @Nullable String prefix) {
        this.accountUrl = withoutSecrets(Objects.requireNonNull(accountUrl, "accountUrl"));
        this.container = validateContainer(container);
        this.prefix = validatePrefix(prefix);
    }

    String container() {
        return container;
    }

    String prefix() {
        return prefix;
    }

    /** The blob name of a lease key: the prefix, then the key with trailing dots of segments escaped (see above). */
    String blobName(String leaseKey) {
        String key = LeaseKeys.validate(leaseKey);
        if (key.indexOf('.') < 0) {
            return prefix + key;
        }
        StringBuilder name = new StringBuilder(prefix.length() + key.length() + 4).append(prefix);
        String[] segments = key.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                name.append('/');
            }
            name.append(segments[i]);
            if (segments[i].endsWith(".")) {
                name.append('~');
            }
        }
        return name.toString();
    }

    /** The URL of a blob, without any query. */
    String uri(String blobName) {
        return accountUrl + "/" + container + "/" + blobName;
    }

    /** The account's blob endpoint, without credentials or query. */
    String endpointDescription() {
        return accountUrl;
    }

    /** The URL of the prefix: {@code <account endpoint>/<container>/<prefix>}. */
    String describe() {
        return accountUrl + "/" + container + "/" + prefix;
    }

    private static String validateContainer(@Nullable String container) {
        if (container == null || container.isBlank()) {
            throw new InvalidSettingException("container", container, null,
                    "must be set to the name of an existing container", "no Azure Blob container configured: call"
                            + " container(\"...\") (the container must exist; hoplock does not create it)");
        }
        if (!CONTAINER.matcher(container).matches()) {
            throw new InvalidSettingException("container", container, null, CONTAINER_RULE,
                    "the Azure Blob container '" + container + "' " + CONTAINER_RULE
                            + "; give any path inside the container as the prefix");
        }
        return container;
    }

    private static String validatePrefix(@Nullable String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            return "";
        }
        String rule = null;
        if (!PREFIX.matcher(prefix).matches()) {
            rule = "must consist of letters, digits, '.', '_', '-' and '/'";
        } else if (prefix.startsWith("/")) {
            rule = "must not start with '/' (blob names have no leading slash; use for example 'locks/')";
        } else if (prefix.contains("//")) {
            rule = "must not contain '//'";
        } else if (prefix.contains("./")) {
            rule = "must not have a segment that ends in '.' (Azure drops trailing dots from blob names)";
        } else if (prefix.length() > MAX_PREFIX) {
            rule = "must be at most " + MAX_PREFIX + " characters, so that prefix plus a lease key fits Azure's "
                    + MAX_BLOB_NAME + "-character blob name limit";
        }
        if (rule != null) {
            throw new InvalidSettingException("prefix", prefix, null, rule,
                    "the blob name prefix '" + prefix + "' " + rule);
        }
        return prefix;
    }

    /** {@code scheme://host[:port][/path]} of {@code url}: no user info, query (a SAS) or fragment. */
    static String withoutSecrets(String url) {
        try {
            URI uri = URI.create(url.strip());
            if (uri.getHost() == null) {
                return uri.getScheme() == null ? "the Azure Blob endpoint" : uri.getScheme() + "://endpoint";
            }
            String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            while (path.endsWith("/")) {
                path = path.substring(0, path.length() - 1);
            }
            return uri.getScheme() + "://" + uri.getHost() + port + path;
        } catch (IllegalArgumentException e) {
            return "the Azure Blob endpoint";
        }
    }
}
