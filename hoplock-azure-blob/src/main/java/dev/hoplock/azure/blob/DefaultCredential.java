package dev.hoplock.azure.blob;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import dev.hoplock.core.InvalidSettingException;

/**
 * Creates Azure Identity's {@code DefaultAzureCredential} (managed identity, workload identity, environment variables,
 * Azure CLI, ...). Kept apart so that {@code com.azure:azure-identity}, an optional dependency, is loaded only when it
 * is asked for.
 */
final class DefaultCredential {

    private static final String BUILDER = "com.azure.identity.DefaultAzureCredentialBuilder";

    private DefaultCredential() {
    }

    /**
     * @param httpClient the transport of its token requests (the same as the storage client's, so that no HTTP
     *                   client provider needs to be on the class path)
     * @throws InvalidSettingException naming the missing dependency when azure-identity is not on the class path
     */
    static TokenCredential create(HttpClient httpClient) {
        try {
            Class.forName(BUILDER, false, DefaultCredential.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            InvalidSettingException refused = new InvalidSettingException("defaultAzureCredential", null, null,
                    "needs com.azure:azure-identity on the class path",
                    "defaultAzureCredential() needs Azure Identity: add the dependency com.azure:azure-identity (its"
                            + " version from com.azure:azure-sdk-bom), or pass a TokenCredential, a SAS token or a"
                            + " connection string instead");
            refused.initCause(e);
            throw refused;
        }
        return new com.azure.identity.DefaultAzureCredentialBuilder().httpClient(httpClient).build();
    }
}
