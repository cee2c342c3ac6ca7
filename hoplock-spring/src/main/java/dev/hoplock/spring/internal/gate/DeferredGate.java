package dev.hoplock.spring.internal.gate;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * A gate that spans a subscription instead of a call: what {@code @LeaderOnly}, {@code @LeaderOnly(key = ...)} and
 * {@code @WithLock} do for a method that returns a deferred reactive type ({@link CallStyle#DEFERRED_PUBLISHER}) or is
 * a Kotlin suspend function ({@link CallStyle#KOTLIN_SUSPEND}, which Spring AOP invokes as a {@code Mono} and awaits).
 *
 * <p>Guarantees, for each subscription to what the gated call returns:
 * <ul>
 *   <li>the gate is opened at subscription ({@link Opener}: a leader scope, a key's claim, a lock), and the method is
 *       invoked only then, inside it, on a clone of the call ({@link ProxyMethodInvocation#invocableClone()}), so
 *       that every subscription (a retry, a repeat) asks the gate again and runs the method once;</li>
 *   <li>a gate that does not open makes the subscription empty (a skipped call: an empty {@code Mono}/{@code Flux},
 *       {@code null} for a coroutine) or fail (the opener's error signal), and the method is not invoked;</li>
 *   <li>the opened gate's {@link Entry#contextValue()} is in the Reactor {@code Context} of the method's publisher
 *       under {@link Entry#contextKey()} (a coroutine reads it through {@code ReactorContext});</li>
 *   <li>the loss of the gate (the callback the opener registered with the engine) cancels the method's publisher and
 *       ends the subscription with {@link Entry#lost()}; the engine's callback only hands the loss to Reactor's
 *       bounded-elastic scheduler, so no user code runs on the engine's threads or under its locks; and no element is
 *       passed on once the gate reports the loss ({@link Entry#isValid()} is asked before each element), even before
 *       the cancellation arrives;</li>
 *   <li>the gate is closed once per opening when the subscription terminates: completion, error or cancellation
 *       ({@link Entry#exit(boolean)}); a completion or an error is passed on only after the exit finished (a lock is
 *       released before the caller goes on); a cancellation starts the exit.</li>
 * </ul>
 * Only loaded when Reactor is on the class path ({@link CallStyle#REACTOR_PRESENT}): the gates' interceptors refer
 * to it, and to their own Reactor types, only from classes they load for a deferred call.
 */
public final class DeferredGate {

    private static final String FLOW = "kotlinx.coroutines.flow.Flow";

    private DeferredGate() {
    }

    /** One opening of the gate, for one subscription. */
    public interface Entry {

        /** The key of {@link #contextValue()} in the Reactor {@code Context}. */
        Object contextKey();

        /** What the method's publisher finds in its Reactor {@code Context}: the leader or lock context. */
        Object contextValue();

        /** Whether the gate still holds now; asked before each element. Local state only. */
        boolean isValid();

        /** The error that ends the subscription when the gate is lost while it runs. */
        RuntimeException lost();

        /**
         * Closes the gate (a scope closed, a lock released); subscribed once when the subscription terminates.
         *
         * @param lost whether the subscription ends because the gate was lost
         */
        Publisher<?> exit(boolean lost);
    }

    /**
     * Opens the gate for one subscription: a publisher of the {@link Entry} (opened), empty (skipped: listeners told)
     * or an error (refused with THROW). It registers {@code onLoss} with the engine as the loss callback of what it
     * opens; {@code onLoss} only hands off, so it may run on any thread, under any lock. The publisher is subscribed
     * at the subscription's first request, and may be cancelled after it emitted the entry (which the gate then
     * closes): a cancellation hook of the opener must tell the two apart.
     */
    @FunctionalInterface
    public interface Opener {
        Publisher<Entry> open(Runnable onLoss);
    }

    /** The loss of one subscription's gate: a signal that the engine's callback fires on another thread. */
    private static final class Loss {
        private final Sinks.Empty<Void> signal = Sinks.empty();
        private final AtomicBoolean fired = new AtomicBoolean();

        /** The engine's callback: hands the signal to a scheduler thread (user code runs on cancellation). */
        void fire() {
            if (fired.compareAndSet(false, true)) {
                try {
                    Schedulers.boundedElastic().schedule(signal::tryEmitEmpty);
                } catch (RuntimeException rejected) {
                    // The scheduler is full or disposed: the cancellation runs here rather than not at all.
                    signal.tryEmitEmpty();
                }
            }
        }

        boolean fired() {
            return fired.get();
        }
    }

    /**
     * Gates the call {@code invocation} of {@code method} (of {@code style}, not {@link CallStyle#DIRECT}) per
     * subscription; returns what the proxy returns to the caller: the method's own reactive type, or a publisher that
     * Spring AOP awaits for a Kotlin suspend function.
     */
    public static Object gate(MethodInvocation invocation, Method method, CallStyle style, Opener opener) {
        Calls calls = new Calls(invocation);
        if (style == CallStyle.KOTLIN_SUSPEND) {
            boolean flow = FLOW.equals(new MethodParameter(method, -1).getParameterType().getName());
            // Spring AOP invoked the suspend function as a Mono (a Flux for one returning a Flow).
            Function<Object, Publisher<?>> asPublisher = result -> (Publisher<?>) result;
            return flow ? many(calls, opener, asPublisher) : single(calls, opener, asPublisher);
        }
        ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(method.getReturnType());
        if (adapter == null) {
            throw new IllegalStateException(method + " returns " + method.getReturnType().getName()
                    + ", which Spring's ReactiveAdapterRegistry cannot adapt: the gate cannot span its subscription");
        }
        Function<Object, Publisher<?>> toPublisher = result -> adapter.toPublisher(result);
        Publisher<Object> gated = adapter.isMultiValue() ? many(calls, opener, toPublisher)
                : single(calls, opener, toPublisher);
        return adapter.fromPublisher(gated);
    }

    private static Mono<Object> single(Calls calls, Opener opener, Function<Object, Publisher<?>> toPublisher) {
        return Mono.defer(() -> {
            Loss loss = new Loss();
            return open(opener, loss).flatMap(entry -> {
                Exit exit = new Exit(entry, loss);
                return Mono.from(run(calls, entry, loss, toPublisher))
                        .flatMap(value -> exit.then().thenReturn(value))
                        .switchIfEmpty(Mono.defer(exit::then))
                        .onErrorResume(error -> exit.then().then(Mono.error(error)))
                        .doOnCancel(exit::now);
            });
        });
    }

    private static Flux<Object> many(Calls calls, Opener opener, Function<Object, Publisher<?>> toPublisher) {
        return Flux.defer(() -> {
            Loss loss = new Loss();
            return open(opener, loss).flatMapMany(entry -> {
                Exit exit = new Exit(entry, loss);
                return run(calls, entry, loss, toPublisher)
                        .onErrorResume(error -> exit.then().then(Mono.error(error)))
                        .concatWith(Mono.defer(exit::then))
                        .doOnCancel(exit::now);
            });
        });
    }

    /**
     * The opening, at the first request rather than at subscription: a subscription cancelled before it requests
     * (which Reactor allows) opens nothing, so leaves nothing open.
     */
    private static Mono<Entry> open(Opener opener, Loss loss) {
        // hide(): a scalar source would make flatMap call the opener at subscription, before any request.
        return Mono.just(Boolean.TRUE).hide().flatMap(requested -> Mono.from(opener.open(loss::fire)));
    }

    /**
     * The exit of one opening, once: awaited before a completion or an error is passed on, started without waiting
     * on a cancellation (which has no one to tell). Not Reactor's {@code usingWhen}: its cancellation callback is not
     * called when the resource comes from a publisher that is not a scalar, as an opener's is.
     */
    private static final class Exit {
        private final Entry entry;
        private final Loss loss;
        private final AtomicBoolean done = new AtomicBoolean();

        Exit(Entry entry, Loss loss) {
            this.entry = entry;
            this.loss = loss;
        }

        /**
         * The exit, begun when subscribed if it has not begun yet: a cancellation between building this Mono and
         * subscribing it (Reactor then skips the subscription) leaves the exit to {@link #now()}, never to nobody.
         */
        <T> Mono<T> then() {
            return Mono.defer(() -> {
                if (!done.compareAndSet(false, true)) {
                    return Mono.<T>empty();
                }
                return Mono.from(entry.exit(loss.fired() || !entry.isValid())).then(Mono.<T>empty());
            });
        }

        /** On cancellation: the exit, started now. */
        void now() {
            this.<Object>then().subscribe();
        }
    }

    /** Invokes the method inside {@code entry} and cuts its publisher at the loss. */
    private static Flux<Object> run(Calls calls, Entry entry, Loss loss, Function<Object, Publisher<?>> toPublisher) {
        Publisher<?> source;
        try {
            Object result = calls.proceed();
            source = result == null ? Mono.empty() : toPublisher.apply(result);
        } catch (Throwable e) {
            return Flux.error(e);
        }
        // An emitting signal: takeUntilOther cancels the method's publisher then (an erroring one would pass the error
        // on and leave the publisher running); the loss is turned into the error below.
        Mono<Boolean> lost = loss.signal.asMono().thenReturn(Boolean.TRUE);
        return Flux.<Object>from(source)
                .contextWrite(context -> context.put(entry.contextKey(), entry.contextValue()))
                .<Object>handle((value, sink) -> {
                    if (entry.isValid()) {
                        sink.next(value);
                    } else {
                        // Cancels the method's publisher at once (the engine's loss callback may not have run yet).
                        sink.error(entry.lost());
                    }
                })
                .takeUntilOther(lost)
                // takeUntilOther completed at the loss (the publisher cancelled): the loss is an error for the subscriber.
                .concatWith(Mono.defer(() -> loss.fired() ? Mono.error(entry.lost()) : Mono.empty()));
    }

    /** The call, invoked once per subscription on a clone, or once at all when the invocation cannot be cloned. */
    private static final class Calls {
        private final MethodInvocation invocation;
        private final AtomicBoolean proceeded = new AtomicBoolean();

        Calls(MethodInvocation invocation) {
            this.invocation = invocation;
        }

        @Nullable Object proceed() throws Throwable {
            if (invocation instanceof ProxyMethodInvocation proxied) {
                return proxied.invocableClone().proceed();
            }
            if (!proceeded.compareAndSet(false, true)) {
                throw new IllegalStateException(invocation.getMethod() + " was called through an invocation that"
                        + " cannot be cloned, so its result can be subscribed once only");
            }
            return invocation.proceed();
        }
    }
}
