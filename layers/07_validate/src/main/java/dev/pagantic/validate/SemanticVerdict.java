package dev.pagantic.validate;

import java.util.Objects;

/**
 * A semantic validator's judgement of one output.
 *
 * @param valid  whether the output is acceptable (grounded, consistent, sensible for the input)
 * @param reason the judge's explanation; may be empty when valid
 */
public record SemanticVerdict(boolean valid, String reason) {

    public SemanticVerdict {
        Objects.requireNonNull(reason, "reason");
    }
}
