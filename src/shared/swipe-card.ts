/** A member card of the swipe decks (GAME-02, the tinderswipe lander) and the two choices on it. */
export type SwipeDecision = 'like' | 'nope';

export interface SwipeCard {
  id: number;
  name: string;
  age: number;
  place: string;
  /** URLs of the main image and its thumbnail, with the main image's size. */
  image: string;
  thumb: string;
  width: number;
  height: number;
  fictional: boolean;
}
