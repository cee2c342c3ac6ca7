package dev.hoplock.azure.blob;

import com.azure.core.http.HttpPipeline;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RequestRetryPolicy;
import dev.hoplock.core.InvalidSettingException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.net.URI;
import java.util.Locale;

/**
 * Refuses a secondary endpoint of a geo-redundant (RA-GRS, RA-GZRS) account: reads there are eventually consistent,
 * so an elector could see a lease that is no longer current. Two ways lead there: an endpoint whose account name ends
 * in {@code -secondary} (in the host, or in the path of an IP-style URL), whichever builder path it comes from (an
 * endpoint, a connection string, an application's service or container client), and an application's client whose
 * retry options name a secondary host (the SDK then sends a retried read there). The second is found by reading the retry policy of the client's pipeline; where that is not
 * possible (a future SDK), it is logged at debug level and the documentation's warning stands.
 */
final class SecondaryEndpoints {

    private static final Logger log = LoggerFactory.getLogger(SecondaryEndpoints.class);
    private static final String WHY = "reads from a secondary endpoint of a geo-redundant account are eventually"
            + " consistent, and hoplock must read the latest lease";

    private SecondaryEndpoints() {
    }

    /**
     * Refuses an endpoint URL whose account name ends in {@code -secondary}: the first label of the host
     * ({@code <account>-secondary.blob.core.windows.net}), or, in an IP-style URL (one with an explicit port, as the
     * SDK tells them apart: Azurite, Azure Stack, a local proxy), the first path segment
     * ({@code http://127.0.0.1:10000/devstoreaccount1-secondary}).
     */
    static void refuseSecondaryHost(String setting, String url) {
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            return;
        }
        String host = uri.getHost();
        if (host == null) {
            return;
        }
        String account = host.split("\\.", 2)[0];
        if (uri.getPort() != -1) {
            String path = uri.getPath() == null ? "" : uri.getPath();
            String first = path.startsWith("/") ? path.substring(1) : path;
            String pathAccount = first.split("/", 2)[0];
            if (isSecondary(pathAccount)) {
                account = pathAccount;
            }
        }
        if (isSecondary(account)) {
            throw new InvalidSettingException(setting, BlobLocation.withoutSecrets(url), null,
                    "must be the primary endpoint", "the Azure Blob endpoint " + BlobLocation.withoutSecrets(url)
                    + " is a secondary endpoint (account '" + account + "'): " + WHY + "; use the primary endpoint"
                    + " (the account name without '-secondary')");
        }
    }

    private static boolean isSecondary(String account) {
        String lower = account.toLowerCase(Locale.ROOT);
        return lower.endsWith("-secondary") || lower.contains("-secondary-");
    }

    /** Refuses a client whose pipeline retries reads against a secondary host. */
    static void refuseSecondaryRetries(String setting, HttpPipeline pipeline) {
        for (int i = 0; i < pipeline.getPolicyCount(); i++) {
            HttpPipelinePolicy policy = pipeline.getPolicy(i);
            if (policy instanceof RequestRetryPolicy retry) {
                String secondary = secondaryHost(retry);
                if (secondary != null && !secondary.isBlank()) {
                    throw new InvalidSettingException(setting, null, null,
                            "must not retry against a secondary host", "the Azure Blob client given to hoplock"
                            + " retries reads against the secondary host " + BlobLocation.withoutSecrets(secondary)
                            + " (RequestRetryOptions secondaryHost): " + WHY + "; give hoplock a client whose retry"
                            + " options name no secondary host");
                }
            }
        }
    }

    private static @Nullable String secondaryHost(RequestRetryPolicy policy) {
        try {
            Field field = RequestRetryPolicy.class.getDeclaredField("requestRetryOptions");
            field.setAccessible(true);
            RequestRetryOptions options = (RequestRetryOptions) field.get(policy);
            return options == null ? null : options.getSecondaryHost();
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.debug("hoplock: cannot read the retry options of the application's Azure Blob client ({}); make sure"
                    + " they name no secondary host", e.toString());
            return null;
        }
    }
}
