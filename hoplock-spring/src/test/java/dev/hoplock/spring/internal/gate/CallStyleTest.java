package dev.hoplock.spring.internal.gate;

import kotlin.coroutines.Continuation;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Which methods a call-scoped gate covers: everything whose work runs inside the call, and nothing else. */
class CallStyleTest {

    @Test
    void workThatRunsInsideTheCallIsDirect() throws Exception {
        assertThat(style("voidCall")).isEqualTo(CallStyle.DIRECT);
        assertThat(style("number")).isEqualTo(CallStyle.DIRECT);
        assertThat(style("list")).isEqualTo(CallStyle.DIRECT);
        assertThat(style("array")).isEqualTo(CallStyle.DIRECT);
        assertThat(style("object")).isEqualTo(CallStyle.DIRECT);
    }

    @Test
    void futuresAreStartedNotDeferredSoTheyStayDirect() throws Exception {
        assertThat(style("completableFuture")).isEqualTo(CallStyle.DIRECT);
        assertThat(style("completionStage")).isEqualTo(CallStyle.DIRECT);
        assertThat(style("future")).isEqualTo(CallStyle.DIRECT);
    }

    @Test
    void publishersAreDeferred() throws Exception {
        assertThat(style("mono")).isEqualTo(CallStyle.DEFERRED_PUBLISHER);
        assertThat(style("flux")).isEqualTo(CallStyle.DEFERRED_PUBLISHER);
        assertThat(style("publisher")).isEqualTo(CallStyle.DEFERRED_PUBLISHER);
        assertThat(style("flowPublisher")).isEqualTo(CallStyle.DEFERRED_PUBLISHER);
        assertThat(style("ownPublisher")).isEqualTo(CallStyle.DEFERRED_PUBLISHER);
    }

    @Test
    void aContinuationAsLastParameterMakesASuspendFunction() throws Exception {
        assertThat(Samples.class.getMethod("suspending", String.class, Continuation.class))
                .extracting(CallStyle::of).isEqualTo(CallStyle.KOTLIN_SUSPEND);
        assertThat(Samples.class.getMethod("continuationFirst", Continuation.class, String.class))
                .extracting(CallStyle::of).isEqualTo(CallStyle.DIRECT);
    }

    private static CallStyle style(String name) throws NoSuchMethodException {
        return CallStyle.of(Samples.class.getMethod(name));
    }

    /** A Publisher implemented by hand, unknown to any adapter registry. */
    interface OwnPublisher extends Publisher<String> {
    }

    @SuppressWarnings("unused")
    public static class Samples {
        public void voidCall() {
        }

        public int number() {
            return 1;
        }

        public List<String> list() {
            return List.of();
        }

        public String[] array() {
            return new String[0];
        }

        public @Nullable Object object() {
            return null;
        }

        public @Nullable CompletableFuture<String> completableFuture() {
            return null;
        }

        public @Nullable CompletionStage<String> completionStage() {
            return null;
        }

        public @Nullable Future<String> future() {
            return null;
        }

        public @Nullable Mono<String> mono() {
            return null;
        }

        public @Nullable Flux<String> flux() {
            return null;
        }

        public @Nullable Publisher<String> publisher() {
            return null;
        }

        public Flow.@Nullable Publisher<String> flowPublisher() {
            return null;
        }

        public @Nullable OwnPublisher ownPublisher() {
            return null;
        }

        public @Nullable Object suspending(String argument, Continuation<? super String> continuation) {
            return null;
        }

        public @Nullable Object continuationFirst(Continuation<? super String> continuation, String argument) {
            return null;
        }
    }
}
