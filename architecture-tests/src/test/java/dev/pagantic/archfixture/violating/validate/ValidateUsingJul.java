package dev.pagantic.archfixture.violating.validate;

import java.util.logging.Logger;

/** Breaks "library code logs through SLF4J only": it looks up a java.util.logging logger inside a method. */
public final class ValidateUsingJul {

    public boolean validate(String output) {
        Logger.getLogger(ValidateUsingJul.class.getName()).info(output);
        return !output.isEmpty();
    }
}
