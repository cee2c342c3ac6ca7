package dev.hoplock.core;

/**
 * An elector setting, or a combination of settings, that cannot work. {@link #setting()} names the setting (as in
 * {@link Elector.Builder}), so that configuration layers can map it to their own property names.
 */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String setting;

    public InvalidSettingException(String setting, String message) {
        super(message);
        this.setting = setting;
    }

    /** The builder setting at fault, for example {@code renewInterval}. */
    public String setting() {
        return setting;
    }
}
