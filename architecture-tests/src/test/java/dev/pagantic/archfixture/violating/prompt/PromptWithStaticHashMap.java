package dev.pagantic.archfixture.violating.prompt;

import java.util.HashMap;

/** Breaks "static fields are not of mutable types": a cache shared by every instance. */
public final class PromptWithStaticHashMap {

    private static final HashMap<String, String> CACHE = new HashMap<>();

    public String render(String template) {
        return CACHE.computeIfAbsent(template, String::strip);
    }
}
