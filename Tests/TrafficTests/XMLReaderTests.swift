import Foundation
import Testing

@testable import Traffic

@Suite("XML reader")
struct XMLReaderTests {
    private func read(_ text: String) throws(XMLTree.ReadError) -> XMLTree {
        try XMLReader.read(Data(text.utf8))
    }

    /// "line L, column C: reason" of the error reading `text`, or nil when it reads.
    private func failure(_ text: String) -> String? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return "line \(error.line), column \(error.column): \(error.reason)"
        }
    }

    @Test("elements, attributes, text, CDATA, references, comments and instructions")
    func wellFormed() throws {
        let root = try read(
            """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a feed -->
            <d2:model xmlns:d2="http://datex2.eu/schema/2_0RC1/2_0" xmlns:xsi='x'>
              <record xsi:type="d2:Accident" id = "a&amp;b&#233;&#xE9;" note="two\tlines
            here">
                <comment>&lt;in&gt; <![CDATA[<raw & kept>]]> &quot;q&apos;</comment>
                <?pi data?><empty/><empty />
              </record>
            </d2:model>
            <!-- after -->

            """)
        #expect(root.name == "model" && root.attributes["d2"] == "http://datex2.eu/schema/2_0RC1/2_0")
        let record = try #require(root.child("record"))
        #expect(record.type == "Accident" && record.attributes["id"] == "a&béé")
        #expect(record.attributes["note"] == "two lines here")
        #expect(record.text("comment") == "<in> <raw & kept> \"q'")
        #expect(record.children("empty").count == 2 && record.text == "")
    }

    @Test("line ends: CR LF and a lone CR are a line feed in text")
    func lineEnds() throws {
        let root = try read("<a>one\r\ntwo\rthree</a>")
        #expect(root.text == "one\ntwo\nthree")
    }

    @Test(
        "a malformed document is refused with its line, column and what is wrong",
        arguments: [
            ("", "line 1, column 1: the document has no root element"),
            ("text", "line 1, column 1: expected the root element, found 't'"),
            ("<a>\n  <b></a>", "line 2, column 6: </a> closes <b>"),
            ("<a>\n<b>", "line 2, column 4: the document ends inside <b>"),
            ("<a x=1/>", "line 1, column 6: the value of attribute x is not in quotes, found '1'"),
            ("<a x='1' x='2'/>", "line 1, column 10: attribute x appears twice in <a>"),
            ("<a x='1'y='2'/>", "line 1, column 9: expected white space, '>' or '/>' in <a>, found 'y'"),
            ("<a x='<'/>", "line 1, column 7: '<' inside the value of attribute x"),
            (
                "<a>&nbsp;</a>",
                "line 1, column 4: unknown entity &nbsp; (only XML's five and character references are read)"
            ),
            ("<a>&#0;</a>", "line 1, column 4: &#0; is no XML character"),
            ("<a>&#xD800;</a>", "line 1, column 4: &#xD800; is no XML character"),
            ("<a>a & b</a>", "line 1, column 6: '&' that starts no reference (write '&amp;' for the character)"),
            ("<a>]]></a>", "line 1, column 4: ']]>' outside a CDATA section"),
            ("<a/><b/>", "line 1, column 5: content after the end of the root element <a>: found '<'"),
            ("<a/>x", "line 1, column 5: content after the end of the root element <a>: found 'x'"),
            ("<a><!-- open</a>", "line 1, column 4: comment not closed with '-->'"),
            ("<a><![CDATA[x</a>", "line 1, column 4: CDATA section not closed with ']]>'"),
            ("<a><?x</a>", "line 1, column 4: processing instruction <?x not closed with '?>'"),
            ("<?<?x?><a/>", "line 1, column 3: expected the name of a processing instruction, found '<'"),
            (
                "<a/><?xml version='1.0'?>",
                "line 1, column 5: the XML declaration <?xml …?> stands only at the start of the document"
            ),
            ("<a><!ENTITY x 'y'></a>", "line 1, column 4: a declaration inside <a> is not XML content"),
            ("<a>\u{1}</a>", "line 1, column 4: character U+0001 is not allowed in XML"),
            ("<1a/>", "line 1, column 2: expected the name of an element, found '1'"),
            ("<mc:m.ess", "line 1, column 10: the document ends inside the tag <mc:m.ess>"),
        ])
    func malformed(document: String, message: String) {
        #expect(failure(document) == message)
    }

    @Test("no document type declaration: no entity is declared, no file is read")
    func documentType() {
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <d>&x;</d>
            """
        #expect(failure(document)?.hasPrefix("line 2, column 1: a document type declaration is not accepted") == true)
    }

    @Test("nesting deeper than 64 elements is refused, 64 is read")
    func depth() throws {
        let deepest = String(repeating: "<a>", count: 64) + String(repeating: "</a>", count: 64)
        #expect(throws: Never.self) { try read(deepest) }
        let deeper = String(repeating: "<a>", count: 65) + String(repeating: "</a>", count: 65)
        #expect(failure(deeper) == "line 1, column 193: elements nested deeper than 64")
    }

    @Test("the inputs FoundationXML trapped or leaked on are read or refused (found by Tools/fuzz traffic)")
    func fuzzFindings() throws {
        #expect(try read("<?x?><a><?y?></a>").name == "a")
        #expect(failure("<?x?><mc:m.ess")?.hasPrefix("line 1, column 15: the document ends inside the tag") == true)
        // An unbound namespace prefix (libxml2 reported it, and FoundationXML leaked the report).
        #expect(try read("<mc:a x:y='1'/>").attributes["y"] == "1")
        // A name that is not UTF-8.
        #expect(throws: XMLTree.ReadError.self) { try XMLReader.read(Data([0x3C, 0x61, 0xFF, 0x2F, 0x3E])) }
    }
}
