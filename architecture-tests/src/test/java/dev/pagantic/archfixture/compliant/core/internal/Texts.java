package dev.pagantic.archfixture.compliant.core.internal;

/** A core internal helper; it depends on the JDK only. */
public final class Texts {

    private Texts() {
    }

    public static String requireText(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("text must not be blank");
        }
        return text;
    }
}
