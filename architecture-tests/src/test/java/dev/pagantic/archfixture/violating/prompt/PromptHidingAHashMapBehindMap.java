package dev.pagantic.archfixture.violating.prompt;

import java.util.HashMap;
import java.util.Map;

/**
 * The documented limitation of the mutable-static rule: the field is declared as Map, so the HashMap it holds is
 * invisible to a check of declared types. Reviews have to catch this one.
 */
public final class PromptHidingAHashMapBehindMap {

    private static final Map<String, String> CACHE = new HashMap<>();

    public String render(String template) {
        return CACHE.computeIfAbsent(template, String::strip);
    }
}
