package dev.hoplock.spring.fencing;

import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;

import java.lang.reflect.Method;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * Several token sources as one: the token is the first source's that has one on this thread (so a
 * {@code @WithLock} call's token wins over an enclosing {@code @LeaderOnly} lease when the lock source is listed
 * first), and the fenced resource is <em>that same source's</em> {@link #resource(String)} (so a per-key
 * {@code @LeaderOnly(key = ...)} call is fenced on {@code "invoices/" + key}, each key with its own token sequence),
 * and so is the holder ({@link #currentHolder()}): token, resource and holder always come from one source. A method
 * is covered when any source covers it. Each source keeps its own guarantees.
 */
public final class FirstTokenSource implements FencingTokenSource {

    private final List<FencingTokenSource> sources;

    public FirstTokenSource(List<FencingTokenSource> sources) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("at least one token source is needed");
        }
        this.sources = List.copyOf(sources);
    }

    @Override
    public OptionalLong currentToken() {
        FencingTokenSource active = active();
        return active == null ? OptionalLong.empty() : active.currentToken();
    }

    /**
     * The resource of the source whose token {@link #currentToken()} returns, so that a token is always checked
     * against the resource of its own sequence; the declared name when no source has a token.
     */
    @Override
    public String resource(String declared) {
        FencingTokenSource active = active();
        return active == null ? declared : active.resource(declared);
    }

    /**
     * The holder of the source whose token {@link #currentToken()} returns (a lock's owner must not be checked with
     * an enclosing lease's token, nor the reverse); empty when no source has a token.
     */
    @Override
    public String currentHolder() {
        FencingTokenSource active = active();
        return active == null ? "" : active.currentHolder();
    }

    /** The first source with a token on this thread: the one that answers token, resource and holder. */
    private @Nullable FencingTokenSource active() {
        for (FencingTokenSource source : sources) {
            if (source.currentToken().isPresent()) {
                return source;
            }
        }
        return null;
    }

    @Override
    public boolean covers(Method method, Class<?> targetClass) {
        for (FencingTokenSource source : sources) {
            if (source.covers(method, targetClass)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean isTokenAdvisor(Advisor advisor) {
        for (FencingTokenSource source : sources) {
            if (source.isTokenAdvisor(advisor)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String describe() {
        return sources.stream().map(FencingTokenSource::describe).collect(Collectors.joining(" or "));
    }
}
