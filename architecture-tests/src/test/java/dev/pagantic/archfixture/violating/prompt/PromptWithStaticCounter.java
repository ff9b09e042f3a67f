package dev.pagantic.archfixture.violating.prompt;

/** Breaks "static fields are final": a counter shared by every instance. */
public final class PromptWithStaticCounter {

    private static int rendered;

    public String render(String template) {
        rendered++;
        return template + rendered;
    }
}
