package dev.pagantic.archfixture.violating.prompt;

/** Breaks "static fields are not of mutable types": anyone can overwrite an element of a static array. */
public final class PromptWithStaticArray {

    static final String[] ROLES = {"system", "user"};

    public String first() {
        return ROLES[0];
    }
}
