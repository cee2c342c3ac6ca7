package dev.hoplock.elasticsearch;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The one rule both transports follow for an exchange in flight: wait at most the timeout, then abandon it. */
final class Exchanges {

    private Exchanges() {
    }

    /**
     * Waits for {@code answer} at most {@code timeout}; on timeout or interruption runs {@code cancel} (which must
     * abort the exchange) and throws {@link HttpTimeoutException} or {@link InterruptedException}. A failed exchange
     * is rethrown as its {@link IOException}.
     */
    static <T> T await(CompletableFuture<T> answer, Duration timeout, Runnable cancel)
            throws IOException, InterruptedException {
        try {
            return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            cancel.run();
            throw new HttpTimeoutException("no answer within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            cancel.run();
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(String.valueOf(cause), cause);
        }
    }
}
