package dev.hoplock.spring.fencing;

import org.springframework.aop.Advisor;

import java.lang.reflect.Method;
import java.util.OptionalLong;

/**
 * Where the token of a {@link dev.hoplock.spring.annotation.Fenced} call comes from: whatever made this thread the
 * rightful writer (a {@code @LeaderOnly} gate today; per-key ownership or a named lock later) publishes its token for
 * the duration of the call, and the fence advisor asks for it.
 *
 * <p>Guarantees an implementation must give: {@link #currentToken()} reads thread-local state only (no store
 * request), is empty outside a call of its own, and inside one returns the token that call holds, a value that rises
 * at every change of holder of the thing it gates. Thread-safe.
 */
public interface FencingTokenSource {

    /** The token of the innermost call on this thread that this source gates; empty outside such a call. */
    OptionalLong currentToken();

    /** Whether calls of {@code method} on {@code targetClass} run under a token of this source. */
    boolean covers(Method method, Class<?> targetClass);

    /**
     * Whether {@code advisor} is the one that makes the token current, so that the start-up validator can check that
     * it runs before (outside) the fence advisor.
     */
    boolean isTokenAdvisor(Advisor advisor);

    /**
     * The resource the current call's token is checked against, given the one {@code @Fenced} declares: the declared
     * name, unless tokens are scoped finer than the call's gate (per-key ownership: one token sequence per key, so the
     * key is appended, {@code "invoices/org-42"}). A source made of other sources must return the resource of the
     * source whose token {@link #currentToken()} returns (tokens of different sequences are not comparable: checking
     * one key's token against another key's resource refuses a rightful owner).
     */
    default String resource(String declared) {
        return declared;
    }

    /** What supplies tokens, for messages, for example {@code "@LeaderOnly"}. */
    String describe();
}
