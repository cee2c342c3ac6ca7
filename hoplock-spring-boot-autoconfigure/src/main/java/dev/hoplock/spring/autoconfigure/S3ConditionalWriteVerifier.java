package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.s3.S3Backend;
import dev.hoplock.spring.BackendVerifier;

/**
 * Runs the S3 conditional-write probe ({@link S3Backend#verifyConditionalWrites()}): it writes and deletes a side
 * key under the prefix and fails when the store accepts a write it must refuse.
 */
final class S3ConditionalWriteVerifier implements BackendVerifier {

    @Override
    public boolean appliesTo(Backend backend) {
        return backend instanceof S3Backend;
    }

    @Override
    public void verify(Backend backend) throws BackendException {
        ((S3Backend) backend).verifyConditionalWrites();
    }
}
