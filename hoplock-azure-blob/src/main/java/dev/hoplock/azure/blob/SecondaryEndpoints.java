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
 * in {@code -secondary}, and an application's client whose retry options name a secondary host (the SDK then sends a
 * retried read there). The second is found by reading the retry policy of the client's pipeline; where that is not
 * possible (a future SDK), it is logged at debug level and the documentation's warning stands.
 */
final class SecondaryEndpoints {

    private static final Logger log = LoggerFactory.getLogger(SecondaryEndpoints.class);
    private static final String WHY = "reads from a secondary endpoint of a geo-redundant account are eventually"
            + " consistent, and hoplock must read the latest lease";

    private SecondaryEndpoints() {
    }

    /** Refuses an endpoint URL whose account name ends in {@code -secondary}. */
    static void refuseSecondaryHost(String setting, String url) {
        String host;
        try {
            host = URI.create(url.strip()).getHost();
        } catch (IllegalArgumentException e) {
            return;
        }
        if (host != null) {
            String account = host.split("\\.", 2)[0].toLowerCase(Locale.ROOT);
            if (account.endsWith("-secondary") || account.contains("-secondary-")) {
                throw new InvalidSettingException(setting, BlobLocation.withoutSecrets(url), null,
                        "must be the primary endpoint", "the Azure Blob endpoint " + BlobLocation.withoutSecrets(url)
                        + " is a secondary endpoint: " + WHY + "; use the primary endpoint (without '-secondary')");
            }
        }
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
