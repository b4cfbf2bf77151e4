/** Props of product-questions (as the generator writes them). */
export interface ProductQuestionsProps {
  product_id: number;
  /** Whether the product takes comments as well as questions. */
  enable_comment?: boolean;
  /** The product's slug (default: from /product/<slug>). */
  seo_url?: string;
}
