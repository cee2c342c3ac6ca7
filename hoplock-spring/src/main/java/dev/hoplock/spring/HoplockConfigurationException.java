package dev.hoplock.spring;

import org.jspecify.annotations.Nullable;

/**
 * A hoplock configuration that cannot work, found while the application context starts. Boot's failure analysis
 * prints {@link #description()} and {@link #action()} instead of a stack trace.
 *
 * <p>Guarantees: the description names the property at fault ({@link #property()}, a {@code hoplock.*} name) when
 * there is one, and the action says how to fix it. Neither contains secret values.
 */
public class HoplockConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final @Nullable String property;
    private final String description;
    private final String action;

    /**
     * @param property    the {@code hoplock.*} property at fault, or null when no single property is
     * @param description what is wrong
     * @param action      how to fix it
     */
    public HoplockConfigurationException(@Nullable String property, String description, String action) {
        this(property, description, action, null);
    }

    public HoplockConfigurationException(@Nullable String property, String description, String action,
            @Nullable Throwable cause) {
        super(description + " Action: " + action, cause);
        this.property = property;
        this.description = description;
        this.action = action;
    }

    /** The {@code hoplock.*} property at fault, or null. */
    public @Nullable String property() {
        return property;
    }

    /** What is wrong. */
    public String description() {
        return description;
    }

    /** How to fix it. */
    public String action() {
        return action;
    }
}
