package dev.pagantic.archfixture.compliant.core;

/** An exception: its serialVersionUID is a static field that the mutable-state rules must accept. */
public final class PaganticFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PaganticFailure(String message) {
        super(message);
    }
}
