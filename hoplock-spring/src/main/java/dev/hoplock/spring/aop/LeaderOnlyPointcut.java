package dev.hoplock.spring.aop;

import org.springframework.aop.ClassFilter;
import org.springframework.aop.support.StaticMethodMatcherPointcut;

import java.lang.reflect.Method;
import java.util.Objects;

/** Matches the methods that {@link LeaderOnlyAttributeSource} declares leader-only. */
final class LeaderOnlyPointcut extends StaticMethodMatcherPointcut {

    private final LeaderOnlyAttributeSource source;

    LeaderOnlyPointcut(LeaderOnlyAttributeSource source) {
        this.source = Objects.requireNonNull(source, "source");
        setClassFilter(new CandidateClassFilter(source));
    }

    @Override
    public boolean matches(Method method, Class<?> targetClass) {
        return source.find(method, targetClass) != null;
    }

    private record CandidateClassFilter(LeaderOnlyAttributeSource source) implements ClassFilter {
        @Override
        public boolean matches(Class<?> clazz) {
            return source.isCandidateClass(clazz);
        }
    }
}
