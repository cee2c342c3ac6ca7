package dev.hoplock.bench.requests;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Counts the HTTP requests an S3 client sends, at the client, by HTTP method: {@code beforeTransmission} runs once per
 * attempt, so SDK retries are counted too.
 */
final class CountingS3Interceptor implements ExecutionInterceptor {

    private final RequestCounter counter;

    CountingS3Interceptor(RequestCounter counter) {
        this.counter = counter;
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes executionAttributes) {
        String method = context.httpRequest().method().name();
        counter.add("s3." + method);
        String path = context.httpRequest().encodedPath();
        if (path.contains("/locks/") || path.contains("locks%2F")) {
            // A request on a lock record, counted again (the totals leave lockkey.* out).
            counter.add("lockkey.s3." + method);
        }
    }
}
