package dev.pagantic.tool.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes a parameter of a {@link Tool @Tool} method, or a component of a record used as a parameter type.
 * Parameters without it are required and named after the Java parameter (the build compiles with
 * {@code -parameters}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
public @interface Param {

    /** What the parameter means, for the model. */
    String value() default "";

    /** The argument's name; the Java parameter's name when empty. */
    String name() default "";

    /**
     * Whether the model must supply the argument. An absent optional argument is passed as {@code null} (the
     * primitive's zero value, an empty {@code Optional}). Parameters of type {@code Optional<T>} are always optional.
     */
    boolean required() default true;
}
