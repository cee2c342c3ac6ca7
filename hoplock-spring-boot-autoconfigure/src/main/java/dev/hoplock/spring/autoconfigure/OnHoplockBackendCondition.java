package dev.hoplock.spring.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The condition behind {@link ConditionalOnHoplockBackend}; see there for the rule. */
final class OnHoplockBackendCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Map<String, Object> attributes = Objects.requireNonNull(
                metadata.getAnnotationAttributes(ConditionalOnHoplockBackend.class.getName()),
                "the condition runs only where the annotation is");
        BackendType wanted = (BackendType) Objects.requireNonNull(attributes.get("value"), "value is required");
        ConditionMessage.Builder message = ConditionMessage.forCondition(ConditionalOnHoplockBackend.class, wanted);
        Optional<BackendType> chosen = chosen(context.getEnvironment());
        if (chosen.isPresent() && chosen.get() == wanted) {
            return ConditionOutcome.match(message.because("the hoplock backend is " + wanted));
        }
        return ConditionOutcome.noMatch(message.because("the hoplock backend is "
                + chosen.map(Enum::name).orElse("not configured")));
    }

    /** The store the properties choose, if they choose exactly one. */
    static Optional<BackendType> chosen(Environment environment) {
        Binder binder = Binder.get(environment);
        Optional<BackendType> explicit = binder.bind("hoplock.backend", BackendType.class).map(Optional::of)
                .orElse(Optional.empty());
        if (explicit.isPresent()) {
            return explicit;
        }
        boolean bucket = binder.bind("hoplock.s3.bucket", String.class).isBound();
        boolean directory = binder.bind("hoplock.filesystem.directory", String.class).isBound();
        if (bucket && !directory) {
            return Optional.of(BackendType.S3);
        }
        if (directory && !bucket) {
            return Optional.of(BackendType.FILESYSTEM);
        }
        return Optional.empty();
    }
}
