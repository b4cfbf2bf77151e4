/** Props of advert-modal: widget 5 (the pre-load advert), written only when it is active. */
export interface AdvertModalProps {
  /** The advert's HTML (staff-written, from the widget's description). */
  description?: string;
  /** The widget's flag; false keeps the modal shut. */
  is_active?: boolean | number;
  /** The modal's heading, if any. */
  title?: string;
}
