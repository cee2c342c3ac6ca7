package dev.hoplock.azure.blob;

import com.azure.storage.blob.sas.BlobContainerSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import dev.hoplock.azure.blob.emulator.Azurite;

import java.time.OffsetDateTime;

/** SAS tokens for a container of Azurite, signed with the development account's key. */
final class AzureTestSas {

    private AzureTestSas() {
    }

    /** A container SAS with {@code permissions} (for example "rcwd"), valid for an hour. */
    static String forContainer(Azurite azurite, String container, String permissions) {
        return azurite.serviceClient().getBlobContainerClient(container).generateSas(new BlobServiceSasSignatureValues(
                OffsetDateTime.now().plusHours(1), BlobContainerSasPermission.parse(permissions)));
    }

    /** The {@code sig} value of a SAS token, URL-encoded as in the token. */
    static String signature(String sas) {
        for (String part : sas.split("&")) {
            if (part.startsWith("sig=")) {
                return part.substring(4);
            }
        }
        throw new AssertionError("no sig in the SAS token");
    }
}
