import { imageUrl, responsiveWidth, srcset } from './image';

describe('responsiveWidth (SPEC §9)', () => {
  it('rounds small widths up to 25 or 50', () => {
    expect(responsiveWidth(0)).toBe(25);
    expect(responsiveWidth(1)).toBe(25);
    expect(responsiveWidth(25)).toBe(25);
    expect(responsiveWidth(26)).toBe(50);
    expect(responsiveWidth(50)).toBe(50);
  });

  it('rounds larger widths up to a multiple of 100', () => {
    expect(responsiveWidth(51)).toBe(100);
    expect(responsiveWidth(100)).toBe(100);
    expect(responsiveWidth(101)).toBe(200);
    expect(responsiveWidth(375 * 2)).toBe(800);
    expect(responsiveWidth(1200)).toBe(1200);
  });

  it('rounds fractional device widths up, never down', () => {
    expect(responsiveWidth(360 * 1.5)).toBe(600);
    expect(responsiveWidth(99.2)).toBe(100);
    expect(responsiveWidth(-5)).toBe(25);
  });
});

describe('imageUrl and srcset', () => {
  it('asks the origin for a rounded width, like the generator', () => {
    expect(imageUrl('storage/uploads/fullsize/a.jpg', 640)).toBe('/storage/uploads/fullsize/a.jpg?w=700');
    expect(imageUrl('/storage/x.jpg', 20)).toBe('/storage/x.jpg?w=25');
    expect(imageUrl('storage/360/1.jpg', 750, 35)).toBe('/storage/360/1.jpg?w=800&q=35');
  });

  it('leaves absolute URLs alone', () => {
    expect(imageUrl('https://admin.example.com/a.jpg', 300)).toBe('https://admin.example.com/a.jpg');
  });

  it('drops widths that round to the same variant', () => {
    expect(srcset('s/a.jpg', [150, 200, 380])).toBe('/s/a.jpg?w=200 200w,/s/a.jpg?w=400 400w');
  });
});
