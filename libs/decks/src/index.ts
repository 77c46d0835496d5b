// Pure PDF text extraction (pdfjs-dist legacy build), document text with page offsets, captions, language, classification.
