package dev.pagantic.archfixture.violating.context;

import dev.pagantic.archfixture.violating.tool.Tool;

/** Breaks "band layers do not depend on each other": context imports tool. */
public final class ContextUsingTool {

    public String lookUp(Tool tool) {
        return tool.execute("{}");
    }
}
