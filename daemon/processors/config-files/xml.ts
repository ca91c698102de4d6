// The xml parser, Wings' semantics on a DOM (@xmldom/xmldom): a match "Root.Settings.Port" is
// the path from the document's root element, "*" any element at its level; without a "*" the
// path's elements are made when missing (the root too, in an empty file). A value the template
// wrote as [name='…'] sets that attribute, anything else the element's text. The serializer
// escapes both, so a value is always text, never markup; the rest of the file stays as it was.
// xmldom resolves no external entities, so a file cannot make the node read another.
import { DOMImplementation, DOMParser, XMLSerializer, type Document, type Element, type Node } from "@xmldom/xmldom";
import { ConfigFormatError, type Replacement } from "./types";

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** Wings' form of an attribute value, read from the template's text (never from a variable's value). */
export const XML_ATTRIBUTE = /^\[(\w+)='(.*)'\]$/s;

function readDocument(text: string): Document {
  if (text.trim() === "") {
    const doc = new DOMImplementation().createDocument(null, "", null);
    doc.appendChild(doc.createProcessingInstruction("xml", 'version="1.0" encoding="utf-8"'));
    return doc;
  }
  try {
    // Errors (an entity it will not resolve, a mismatched tag) refuse the file; warnings do not.
    const parser = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") throw new Error(message);
      },
    });
    return parser.parseFromString(text, "text/xml");
  } catch (error) {
    throw new ConfigFormatError(`the file is not XML: ${(error as Error).message.split("\n")[0]}`);
  }
}

function childElements(node: Node): Element[] {
  const found: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) if (child.nodeType === ELEMENT_NODE) found.push(child as Element);
  return found;
}

function findAll(doc: Document, parts: readonly string[]): Element[] {
  let nodes: Node[] = [doc];
  for (const part of parts) nodes = nodes.flatMap((node) => childElements(node).filter((el) => part === "*" || el.tagName === part));
  return nodes as Element[];
}

/** The elements of a path without wildcards made where missing, as Wings does before it looks. */
function ensurePath(doc: Document, parts: readonly string[]): void {
  let element = doc.documentElement;
  if (!element) element = doc.appendChild(doc.createElement(parts[0]!)) as Element;
  for (const tag of parts.slice(1)) element = childElements(element).find((el) => el.tagName === tag) ?? (element.appendChild(doc.createElement(tag)) as Element);
}

/** The element's own text replaced; its child elements stay. */
function setText(doc: Document, element: Element, value: string): void {
  for (const child of [...Array.from(element.childNodes)]) if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) element.removeChild(child);
  element.insertBefore(doc.createTextNode(value), element.firstChild);
}

export function rewriteXml(text: string, replacements: readonly Replacement[]): string {
  const doc = readDocument(text);
  for (const replacement of replacements) {
    const parts = replacement.match.split(".");
    if (parts.some((part) => part !== "*" && !/^[A-Za-z_][\w.:-]*$/.test(part))) throw new ConfigFormatError(`${replacement.match} is not a path of element names`);
    if (!parts.includes("*")) {
      try {
        ensurePath(doc, parts);
      } catch (error) {
        throw new ConfigFormatError(`cannot make ${replacement.match}: ${(error as Error).message}`);
      }
    }
    for (const element of findAll(doc, parts)) {
      if (replacement.attribute) element.setAttribute(replacement.attribute, replacement.value);
      else setText(doc, element, replacement.value);
    }
  }
  const out = new XMLSerializer().serializeToString(doc);
  return out.endsWith("\n") ? out : `${out}\n`;
}
