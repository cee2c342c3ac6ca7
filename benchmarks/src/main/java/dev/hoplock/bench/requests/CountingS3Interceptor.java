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
        counter.add("s3." + context.httpRequest().method().name());
    }
}
