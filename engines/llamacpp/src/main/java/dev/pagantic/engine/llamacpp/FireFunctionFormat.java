package dev.pagantic.engine.llamacpp;

/**
 * FireFunction v2, recognised by {@code  functools[} in the template (which lists the functions itself): after any
 * text, {@code  functools[} and the calls, {@code {"name": ..., "arguments": {...}}}, as a JSON array.
 */
final class FireFunctionFormat extends JsonListFormat {

    static final String OPEN = " functools[";

    FireFunctionFormat() {
        super(OPEN, "");
    }

    @Override
    public String name() {
        return "FireFunction v2";
    }
}
