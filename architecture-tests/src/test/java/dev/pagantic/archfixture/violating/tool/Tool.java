package dev.pagantic.archfixture.violating.tool;

/** A plain tool type that other fixtures use. */
public interface Tool {

    String execute(String arguments);
}
