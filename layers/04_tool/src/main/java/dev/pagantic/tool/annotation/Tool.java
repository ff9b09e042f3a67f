package dev.pagantic.tool.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method as a tool the model may call. Register the object that declares it with
 * {@code ToolRegistry.builder().addAnnotated(object)}; the parameter schema is derived from the method's parameter
 * types, and arguments are converted to them before the method runs (see {@code dev.pagantic.tool.AnnotatedTools}).
 *
 * <pre>{@code
 * class Weather {
 *     @Tool(value = "Current weather for a city", readOnly = true, idempotent = true)
 *     Forecast weather(@Param("City name") String city, @Param(value = "Unit", required = false) Unit unit) { ... }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Tool {

    /** What the tool does, for the model. */
    String value() default "";

    /** The tool's name; the method's name when empty. */
    String name() default "";

    /** The tool only reads state (side-effect level READ); otherwise its side effects are unknown. */
    boolean readOnly() default false;

    /** Repeating a call is harmless, so a failed or timed-out call may be retried. */
    boolean idempotent() default false;

    /** The tool's own timeout in milliseconds; 0 uses the executor's default. */
    long timeoutMillis() default 0;

    /** Run on the caller's thread, for quick tools that never block; see {@link dev.pagantic.tool.Tool#inline()}. */
    boolean inline() default false;
}
