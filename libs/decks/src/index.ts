// Pure PDF text extraction (pdfjs-dist legacy build), document text with page offsets, captions, language, classification.
export { DecksError, type DecksErrorCode } from './decks.errors';
export { extractPdf, type ExtractedPdf, type ExtractedPage, type PdfInfo } from './pdf-text.extractor';
export { cleanRunText, layoutPage, type LaidOutLine, type PageLayout, type PlacedRun, type TextRotation } from './text-layout';
export { pdfDateToIso } from './pdf-date.parser';
export { buildDocumentText, type DocumentText, type PageOffsets } from './document-text.builder';
export { layoutCaptioner, type CaptionablePage, type PageCaptioner } from './page.captioner';
export { detectLanguage, DETECTED_LANGUAGES, MIN_WORDS_FOR_LANGUAGE, type DetectedLanguage } from './language.detector';
export { classifyDocument, type ClassifiablePage, type ClassifyInput, type DocumentClass } from './document.classifier';
export { DOCUMENT_PART_MAX_BYTES, toDocumentParts, type DocumentPart } from './document-parts.splitter';
export { loadPdfJs, pdfjsDocumentParams, type PdfJs } from './pdfjs.loader';
export { nameKey, splitTranscript, titleSaysTranscript, toTranscript, transcriptGate, type TextSpan, type TranscriptSplit, type UnplacedText } from './transcript.splitter';
export { recognizeTranscript, type RecognizeTranscriptInput, type TranscriptRecognition } from './transcript.recognizer';
